package io.skippr.connect.source.http;

import io.skippr.connect.source.common.SkipprSourceConnector;
import io.skippr.connect.source.http.config.HttpIngestConfig;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Push ingest over HTTP: InfluxDB line protocol (v1, v2 and v3 write APIs) and JSON. A client's
 * write is answered only after its rows are durable: acknowledged by Kafka and, with {@code
 * transaction.boundary=connector} on an exactly-once worker, committed in one transaction.
 *
 * <p>Runs {@code tasks.max} tasks, each serving {@code server.port} on the worker it runs on (put a
 * load balancer in front; {@code /health} says which are accepting). There are no source offsets:
 * the data lives with the client until it gets 204, and a client that gets no answer, 429 or 503
 * retries — so Connect has nothing to resume from.
 *
 * <p>Exactly-once: there are no offsets to commit with the records, and with connector-defined
 * boundaries each poll's batch of whole requests is one transaction, answered after its commit.
 */
public final class HttpIngestSourceConnector extends SkipprSourceConnector {

  @Override
  protected void configure(Map<String, String> props) {
    HttpIngestConfig.from(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return HttpIngestSourceTask.class;
  }

  /**
   * {@code maxTasks} tasks, each with its number: each listens on {@code server.port} on its own
   * worker (two on one worker clash, and the second fails with an error saying so).
   */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return taskConfigs(
        maxTasks, task -> Map.of(HttpIngestEndpoint.TASK_INDEX, Integer.toString(task)));
  }

  @Override
  public ConfigDef config() {
    return HttpIngestConfig.CONFIG_DEF;
  }

  @Override
  protected Map<String, String> problems(Map<String, String> connectorConfigs) {
    return HttpIngestConfig.problems(connectorConfigs);
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
