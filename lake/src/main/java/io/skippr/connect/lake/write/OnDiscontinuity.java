package io.skippr.connect.lake.write;

import io.skippr.connect.lake.log.GenerationConfig;
import io.skippr.connect.lake.log.LakeLayout;
import java.io.IOException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a TP does when Kafka's offsets do not continue where the lake resumes it ({@code
 * behavior.on.offset.discontinuity}): fail the task with a message that says how to proceed, or
 * land what Kafka has as a new generation of the TP, after committing what it buffered of the old.
 */
final class OnDiscontinuity {
  private static final Logger LOG = LoggerFactory.getLogger(OnDiscontinuity.class);

  /** Commits what the TP buffered before the generation changes. */
  @FunctionalInterface
  interface Cutter {
    void cutNow(TpStateMachine tpState, String trigger) throws IOException;
  }

  private final GenerationConfig.Behavior behavior;

  OnDiscontinuity(GenerationConfig.Behavior behavior) {
    this.behavior = behavior;
  }

  /**
   * Meets a discontinuity; on return the TP goes on at the delivered offset.
   *
   * @throws ConnectException saying how to proceed, unless new generations are allowed
   */
  void meet(TpStateMachine tpState, OffsetCheck.Discontinuity gap, Cutter cutter)
      throws IOException {
    if (behavior != GenerationConfig.Behavior.NEW_GENERATION) {
      throw new ConnectException(
          "Not writing "
              + tpState.tp
              + ": "
              + gap.describe()
              + ". "
              + GenerationConfig.howToProceed());
    }
    cutter.cutNow(tpState, "new generation");
    long generation = tpState.startGeneration(gap);
    LOG.warn(
        "{}. Started generation {} of {} at offset {}: its units are named {}",
        gap.describe(),
        generation,
        tpState.tp,
        gap.delivered(),
        LakeLayout.compactionId(
            tpState.tp.topic(),
            tpState.tp.partition(),
            generation,
            gap.delivered(),
            gap.delivered()));
  }
}
