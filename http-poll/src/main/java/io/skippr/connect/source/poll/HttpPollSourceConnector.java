package io.skippr.connect.source.poll;

import io.skippr.connect.common.ConfigProblems;
import io.skippr.connect.common.ProjectVersion;
import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.config.EndpointsConfig;
import io.skippr.connect.source.poll.config.HttpPollConfig;
import io.skippr.connect.source.poll.config.PollStateConfig;
import io.skippr.connect.source.poll.cursor.PositionCodec;
import io.skippr.connect.source.poll.state.PollState;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * Polls REST JSON APIs: per endpoint a cursor with a tie-breaker, pagination, authentication
 * (basic, bearer, OAuth2 with rotated refresh tokens kept as encrypted state secrets), retries with
 * Retry-After and a rate limit. Offsets hold the cursor and the page state, so a restart resumes in
 * the middle of a pass; with exactly-once source support each page is one transaction.
 */
public final class HttpPollSourceConnector extends SourceConnector {

  /** Task config key: the endpoints a task polls, comma-separated (set by the connector). */
  public static final String TASK_ENDPOINTS = "task.endpoints";

  private final Function<Map<String, String>, StateStore> storeOpener;
  private final StoreEnvironment environment;
  private Map<String, String> props;
  private List<String> endpoints;

  public HttpPollSourceConnector() {
    this(StateStores::open, StoreEnvironment.system());
  }

  /** With another store and environment than the process's (tests). */
  HttpPollSourceConnector(
      Function<Map<String, String>, StateStore> storeOpener, StoreEnvironment environment) {
    this.storeOpener = storeOpener;
    this.environment = environment;
  }

  @Override
  public String version() {
    return ProjectVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    HttpPollConfig.Values config = HttpPollConfig.from(props, environment);
    this.props = Map.copyOf(props);
    this.endpoints = config.endpoints().stream().map(EndpointSettings::name).toList();
  }

  @Override
  public Class<? extends Task> taskClass() {
    return HttpPollSourceTask.class;
  }

  /** Spreads the endpoints round-robin over at most {@code maxTasks} tasks. */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    int tasks = Math.max(1, Math.min(maxTasks, endpoints.size()));
    List<List<String>> assigned = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      assigned.add(new ArrayList<>());
    }
    for (int i = 0; i < endpoints.size(); i++) {
      assigned.get(i % tasks).add(endpoints.get(i));
    }
    List<Map<String, String>> configs = new ArrayList<>();
    for (List<String> names : assigned) {
      Map<String, String> config = new HashMap<>(props);
      config.put(TASK_ENDPOINTS, String.join(",", names));
      configs.add(config);
    }
    return configs;
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return HttpPollConfig.CONFIG_DEF;
  }

  /** Checks each key, then the combinations, attaching each problem to the key to change. */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    return ConfigProblems.attach(
        super.validate(connectorConfigs),
        HttpPollConfig.problems(connectorConfigs, environment),
        connectorConfigs);
  }

  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    return ExactlyOnceSupport.SUPPORTED;
  }

  /** Each poll returns one page, and the task commits each page as one transaction. */
  @Override
  public ConnectorTransactionBoundaries canDefineTransactionBoundaries(
      Map<String, String> connectorConfig) {
    return ConnectorTransactionBoundaries.SUPPORTED;
  }

  /**
   * Checks offsets set through Connect's REST API (KIP-875) and applies them to the state-store
   * mirror, so a later resume from the mirror does not undo them. Partitions are {@code
   * {"endpoint": <name>}}; an offset is one this connector writes, or just {@code {"cursor": X}}
   * (optionally with {@code "tiebreak"}): everything up to X was delivered.
   */
  @Override
  public boolean alterOffsets(
      Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    HttpPollConfig.Values config = HttpPollConfig.from(connectorConfig, environment);
    List<String> names = config.endpoints().stream().map(EndpointSettings::name).toList();
    for (Map.Entry<Map<String, ?>, Map<String, ?>> e : offsets.entrySet()) {
      Map<String, ?> partition = e.getKey();
      Object name = partition == null ? null : partition.get(EndpointsConfig.PARTITION_KEY);
      if (partition == null || partition.size() != 1 || !names.contains(name)) {
        throw new ConnectException(
            "Source partition "
                + partition
                + " is not one of this connector's: {\"endpoint\": <name>} with a name of "
                + names);
      }
      if (e.getValue() != null) {
        PositionCodec.fromOffset(e.getValue());
      }
    }
    if (config.mirror() != PollStateConfig.Mode.OFF) {
      try (PollState state = PollState.open(config, connectorConfig, storeOpener)) {
        state.alter(offsets);
      }
    }
    return true;
  }
}
