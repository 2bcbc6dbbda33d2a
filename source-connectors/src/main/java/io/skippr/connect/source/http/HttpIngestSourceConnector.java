package io.skippr.connect.source.http;

import io.skippr.connect.source.http.config.HttpIngestConfig;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * Push ingest over HTTP: InfluxDB line protocol (v1, v2 and v3 write APIs) and JSON. A client's
 * write is answered only after Kafka acknowledged its rows.
 *
 * <p>Runs exactly one task whatever {@code tasks.max} says: the task owns the listening port. There
 * are no source offsets: the data lives with the client until it gets 204, and a client that gets
 * no answer, 429 or 503 retries — so Connect has nothing to resume from.
 */
public final class HttpIngestSourceConnector extends SourceConnector {

  private Map<String, String> props;

  @Override
  public String version() {
    return Version.get();
  }

  @Override
  public void start(Map<String, String> props) {
    HttpIngestConfig.from(props);
    this.props = Map.copyOf(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return HttpIngestSourceTask.class;
  }

  /** One task only: the port is per task, so more tasks would fight over it. */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return List.of(props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return HttpIngestConfig.CONFIG_DEF;
  }

  /** Checks each key, then the combinations, attaching each problem to the key to change. */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config config = super.validate(connectorConfigs);
    Map<String, String> problems = HttpIngestConfig.problems(connectorConfigs);
    for (ConfigValue value : config.configValues()) {
      String problem = problems.get(value.name());
      if (problem != null) {
        value.addErrorMessage(problem);
      }
    }
    return config;
  }

  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    return ExactlyOnceSupport.UNSUPPORTED;
  }

  /**
   * Accepts only resets (null offsets): there are no offsets to move, since a push source cannot
   * re-read what a client sent.
   */
  @Override
  public boolean alterOffsets(
      Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    for (Map.Entry<Map<String, ?>, Map<String, ?>> e : offsets.entrySet()) {
      if (e.getValue() != null) {
        throw new ConnectException(
            "The HTTP ingest connector keeps no source offsets (clients retry unacknowledged"
                + " writes), so offsets cannot be set; only a reset is accepted. Got "
                + e.getValue()
                + " for partition "
                + e.getKey());
      }
    }
    return true;
  }
}
