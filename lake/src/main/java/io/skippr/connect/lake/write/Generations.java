package io.skippr.connect.lake.write;

import io.skippr.connect.lake.log.GenerationConfig;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LogEntry;
import java.io.IOException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a TP does when Kafka's offsets do not continue where the lake resumes it ({@code
 * behavior.on.offset.discontinuity}): fail the task with a message that says how to proceed, or
 * land what Kafka has as a new generation of the TP, after committing what it buffered of the old.
 */
final class Generations {
  private static final Logger LOG = LoggerFactory.getLogger(Generations.class);

  /** Commits what the TP buffered before the generation changes. */
  @FunctionalInterface
  interface Cutter {
    void cutNow(TpSession session, String trigger) throws IOException;
  }

  private final GenerationConfig.Behavior behavior;

  Generations(GenerationConfig.Behavior behavior) {
    this.behavior = behavior;
  }

  /**
   * Meets a discontinuity; on return the TP goes on at the delivered offset.
   *
   * @throws ConnectException saying how to proceed, unless new generations are allowed
   */
  void start(TpSession session, OffsetContinuity.Discontinuity gap, Cutter cutter)
      throws IOException {
    if (behavior != GenerationConfig.Behavior.NEW_GENERATION) {
      throw new ConnectException(
          "Not writing "
              + session.tp
              + ": "
              + gap.describe()
              + ". "
              + GenerationConfig.howToProceed());
    }
    cutter.cutNow(session, "new generation");
    long previousEnd = session.committedEnd().orElse(-1);
    long generation = session.log.state().generation() + 1;
    session.log.append(
        new LogEntry.Generation(
            session.log.epoch(), generation, gap.delivered(), previousEnd, gap.describe()));
    session.continuity.restartAt(gap.delivered());
    session.generationStarted();
    LOG.warn(
        "{}. Started generation {} of {} at offset {}: its units are named {}",
        gap.describe(),
        generation,
        session.tp,
        gap.delivered(),
        LakeLayout.compactionId(
            session.tp.topic(),
            session.tp.partition(),
            generation,
            gap.delivered(),
            gap.delivered()));
  }
}
