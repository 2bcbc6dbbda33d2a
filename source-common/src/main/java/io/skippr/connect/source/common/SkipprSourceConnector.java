package io.skippr.connect.source.common;

import io.skippr.connect.common.ConfigProblems;
import io.skippr.connect.common.ProjectVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * What every source connector of the project does alike: it reports the project's version, checks
 * its settings at start and keeps them for its tasks, attaches each cross-key problem found by
 * {@link #validate} to the key to change, and supports exactly-once delivery with transaction
 * boundaries it defines (each of its tasks commits whole batches).
 */
public abstract class SkipprSourceConnector extends SourceConnector {

  private Map<String, String> props;

  @Override
  public String version() {
    return ProjectVersion.get();
  }

  /** Checks the settings (a bad one fails here, naming its key), then keeps them for the tasks. */
  @Override
  public final void start(Map<String, String> props) {
    configure(props);
    this.props = Map.copyOf(props);
  }

  /**
   * Reads the settings, keeping what {@link #taskConfigs} needs of them.
   *
   * @throws org.apache.kafka.common.config.ConfigException for a bad setting
   */
  protected abstract void configure(Map<String, String> props);

  /**
   * {@code tasks} task configurations: each the connector's settings with {@code taskSettings} of
   * its number (0, 1, …) added.
   */
  protected final List<Map<String, String>> taskConfigs(
      int tasks, IntFunction<Map<String, String>> taskSettings) {
    List<Map<String, String>> configs = new ArrayList<>(tasks);
    for (int task = 0; task < tasks; task++) {
      Map<String, String> config = new HashMap<>(props);
      config.putAll(taskSettings.apply(task));
      configs.add(config);
    }
    return configs;
  }

  @Override
  public void stop() {}

  /** Checks each key, then the combinations, attaching each problem to the key to change. */
  @Override
  public final Config validate(Map<String, String> connectorConfigs) {
    return ConfigProblems.attach(
        super.validate(connectorConfigs), problems(connectorConfigs), connectorConfigs);
  }

  /** The problems of combinations of keys, by the key to change. */
  protected abstract Map<String, String> problems(Map<String, String> connectorConfigs);

  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    return ExactlyOnceSupport.SUPPORTED;
  }

  /** Each task commits its batches as whole transactions (KIP-618). */
  @Override
  public ConnectorTransactionBoundaries canDefineTransactionBoundaries(
      Map<String, String> connectorConfig) {
    return ConnectorTransactionBoundaries.SUPPORTED;
  }
}
