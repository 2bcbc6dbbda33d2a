package io.skippr.connect.sink;

import io.skippr.connect.common.ProjectVersion;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.lake.write.LakeWriter;
import io.skippr.connect.lake.write.OffsetReset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
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
    return ProjectVersion.get();
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

  /**
   * Honours offsets changed through the REST API (KIP-875): the lake resumes each TP where its log
   * says, so without this a reset would be silently overridden. A TP the lake has a position for is
   * refused under {@code behavior.on.offset.discontinuity=fail} and starts a new generation at the
   * new offset under {@code new_generation} (see {@link OffsetReset}).
   */
  @Override
  public boolean alterOffsets(
      Map<String, String> connectorConfig, Map<TopicPartition, Long> offsets) {
    OffsetReset.apply(connectorConfig, offsets);
    return true;
  }

  /** Checks each key, then the combinations, attaching each problem to the key to change. */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    return LakeSinkConfig.validate(connectorConfigs);
  }
}
