package io.skippr.connect.source.poll;

import io.skippr.connect.source.common.SkipprSourceConnector;
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
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Polls REST JSON APIs: per endpoint a cursor with a tie-breaker, pagination, authentication
 * (basic, bearer, OAuth2 with rotated refresh tokens kept as encrypted state secrets), retries with
 * Retry-After and a rate limit. Offsets hold the cursor and the page state, so a restart resumes in
 * the middle of a pass; with exactly-once source support each page is one transaction (each poll
 * returns one page).
 */
public final class HttpPollSourceConnector extends SkipprSourceConnector {

  /** Task config key: the endpoints a task polls, comma-separated (set by the connector). */
  public static final String TASK_ENDPOINTS = "task.endpoints";

  private final Function<Map<String, String>, StateStore> storeOpener;
  private final StoreEnvironment environment;
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
  protected void configure(Map<String, String> props) {
    HttpPollConfig.Values config = HttpPollConfig.from(props, environment);
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
    return taskConfigs(tasks, task -> Map.of(TASK_ENDPOINTS, String.join(",", assigned.get(task))));
  }

  @Override
  public ConfigDef config() {
    return HttpPollConfig.CONFIG_DEF;
  }

  @Override
  protected Map<String, String> problems(Map<String, String> connectorConfigs) {
    return HttpPollConfig.problems(connectorConfigs, environment);
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
