package io.skippr.connect.lake.write;

import io.skippr.connect.lake.log.GenerationConfig;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LogState;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.state.StoreProgressMirror;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.StorageConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a change of the connector's offsets made through Connect's REST API (KIP-875) to the
 * lake, which would otherwise resume every TP where its log says and silently override the change.
 * A TP the lake has no position for takes the new offset as it is. For any other TP, the change is
 * refused under {@code behavior.on.offset.discontinuity=fail} (nothing is changed, for any TP), and
 * starts a new generation of the TP at the new offset under {@code new_generation}.
 */
public final class OffsetReset {
  private static final Logger LOG = LoggerFactory.getLogger(OffsetReset.class);

  private final LakeStorage storage;
  private final ProgressMirror mirror;
  private final GenerationConfig.Behavior behavior;
  private final String owner;
  private final long nowMs;
  private final LakeLayout layout = new LakeLayout();

  OffsetReset(
      LakeStorage storage,
      ProgressMirror mirror,
      GenerationConfig.Behavior behavior,
      String owner,
      long nowMs) {
    this.storage = storage;
    this.mirror = mirror;
    this.behavior = behavior;
    this.owner = owner;
    this.nowMs = nowMs;
  }

  /** Applies the change with the connector's own settings. */
  public static void apply(Map<String, String> connectorConfig, Map<TopicPartition, Long> offsets) {
    LakeSinkConfig config = new LakeSinkConfig(connectorConfig);
    ProgressMirror mirror = StoreProgressMirror.open(connectorConfig, config.mirrorMode());
    try (LakeStorage storage = config.storage().open()) {
      new OffsetReset(
              storage,
              mirror,
              config.onDiscontinuity(),
              config.ownerName() + " (offsets changed through the REST API)",
              System.currentTimeMillis())
          .apply(offsets);
    } catch (IOException e) {
      throw new ConnectException(
          "Cannot change the offsets of the lake at "
              + connectorConfig.get(StorageConfig.TOPICS_DIR),
          e);
    } finally {
      if (mirror instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          LOG.warn("Closing the progress mirror failed: {}", e.toString());
        }
      }
    }
  }

  /**
   * Checks every TP first and changes nothing when one is refused; then starts the generations.
   *
   * @param offsets the new offset per TP; null resets it (the consumer starts at the earliest)
   * @throws ConnectException naming every TP the lake cannot move, and how to proceed
   */
  void apply(Map<TopicPartition, Long> offsets) throws IOException {
    Map<TopicPartition, TpLog> moved = new LinkedHashMap<>();
    List<String> refused = new ArrayList<>();
    for (Map.Entry<TopicPartition, Long> change : offsets.entrySet()) {
      TopicPartition tp = change.getKey();
      TpLog log = TpLog.read(storage, layout, tp.topic(), tp.partition());
      OptionalLong resume = log.state().resumeOffset();
      long requested = change.getValue() == null ? 0 : change.getValue();
      if (resume.isEmpty() || resume.getAsLong() == requested) {
        continue;
      }
      moved.put(tp, log);
      refused.add(describe(tp, log.state(), resume.getAsLong(), change.getValue()));
    }
    if (!refused.isEmpty() && behavior == GenerationConfig.Behavior.FAIL) {
      throw new ConnectException(
          "The lake cannot move "
              + String.join("; ", refused)
              + ". Nothing was changed. To land from the new offsets as a new generation of each"
              + " partition (older files stay in the lake), set "
              + GenerationConfig.BEHAVIOR_ON_OFFSET_DISCONTINUITY
              + "=new_generation in the connector's config and change the offsets again.");
    }
    LakeIdentity lake = moved.isEmpty() ? null : LakeIdentity.require(storage, layout);
    for (TpLog log : moved.values()) {
      log.requireLake(lake); // before anything changes, for any TP
    }
    for (TopicPartition tp : offsets.keySet()) {
      mirror.forget(tp.topic(), tp.partition());
    }
    for (Map.Entry<TopicPartition, TpLog> tp : moved.entrySet()) {
      startGeneration(lake, tp.getKey(), tp.getValue(), offsets.get(tp.getKey()));
    }
  }

  private void startGeneration(LakeIdentity lake, TopicPartition tp, TpLog log, Long requested)
      throws IOException {
    log.claimEpoch(lake, owner, nowMs);
    LogState state = log.state();
    String reason =
        requested == null
            ? "the connector's offsets were reset through the REST API"
            : "the connector's offset was set to " + requested + " through the REST API";
    if (state.pending().isPresent()) {
      log.abandon(state.pending().get(), reason);
    }
    long generation = log.startGeneration(requested == null ? -1 : requested, reason);
    LOG.warn(
        "Started generation {} of {}: {}; it resumes at {}",
        generation,
        tp,
        reason,
        requested == null ? "the consumer's position" : "offset " + requested);
  }

  private static String describe(TopicPartition tp, LogState state, long resume, Long requested) {
    String committed =
        state
            .lastCommit()
            .map(unit -> "has committed offsets up to " + unit.end())
            .orElse("resumes at offset " + resume);
    String target = requested == null ? "its earliest offset" : "offset " + requested;
    return tp
        + " to "
        + target
        + ": the lake "
        + committed
        + " of generation "
        + state.generation();
  }
}
