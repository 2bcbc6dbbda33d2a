package io.skippr.connect.sink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * Lands the records of its topics in a lake as partitioned Parquet files, exactly once under every
 * rotation policy (see {@link LakeWriter}).
 */
public class LakeSinkConnector extends SinkConnector {
  private Map<String, String> props;

  @Override
  public String version() {
    return ConnectorVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    new LakeSinkConfig(props); // fail fast on bad settings
    this.props = Map.copyOf(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return LakeSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return new ArrayList<>(Collections.nCopies(maxTasks, props));
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return LakeSinkConfig.configDef();
  }

  /** Checks each key, then the combinations, attaching each problem to the key to change. */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config config = super.validate(connectorConfigs);
    Map<String, String> problems = CrossFieldChecks.problems(config(), connectorConfigs);
    for (ConfigValue value : config.configValues()) {
      String problem = problems.get(value.name());
      if (problem != null) {
        value.addErrorMessage(problem);
      }
    }
    return config;
  }
}
