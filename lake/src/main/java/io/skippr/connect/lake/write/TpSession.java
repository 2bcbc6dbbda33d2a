package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.UnitBuffer;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import java.util.EnumSet;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * One TP a task owns, from open to close: its claimed log, the open unit, and its phase. The phases
 * form an explicit state machine; a move the table below does not allow is a bug and throws.
 *
 * <pre>
 *   REPLAYING ──replayed──► LIVE
 *       │                    │
 *       └──────┬─────────────┘
 *              ├──closing──► CLOSING
 *              └──fenced───► FENCED
 * </pre>
 */
final class TpSession {
  /** Where the TP stands. */
  enum Phase {
    /** Re-reading exactly the offsets of the pending intent; triggers do not cut. */
    REPLAYING,
    /** Buffering records into units that triggers cut. */
    LIVE,
    /** Being closed: nothing more joins; a failure of its unit in flight is its next owner's. */
    CLOSING,
    /** A newer writer claimed the TP: nothing more is written. */
    FENCED
  }

  private static final Set<Phase> OPEN = EnumSet.of(Phase.REPLAYING, Phase.LIVE);

  final TopicPartition tp;
  final TpLog log;

  /** Where the lake expected the TP to resume when it was opened; empty when it had no record. */
  final OptionalLong openedAt;

  /** Whether the offsets Kafka delivers continue where the lake expects. */
  final OffsetContinuity continuity;

  private final LakeSinkMetrics.Tp gauges;
  private Phase phase;
  private LogEntry.Intent replay;
  private UnitBuffer unit = new UnitBuffer();
  private long firstAccepted = -1;

  /**
   * @param replay the pending intent to replay exactly, or null
   * @param seekOffset where the lake expects the TP to resume; empty when it has no record of it
   * @param gauges what the TP's metrics read
   */
  TpSession(
      TopicPartition tp,
      TpLog log,
      LogEntry.Intent replay,
      OptionalLong seekOffset,
      LakeSinkMetrics.Tp gauges) {
    this.tp = tp;
    this.gauges = gauges;
    this.log = log;
    this.replay = replay;
    this.phase = replay == null ? Phase.LIVE : Phase.REPLAYING;
    this.openedAt = seekOffset;
    this.continuity = new OffsetContinuity(tp, seekOffset);
  }

  LakeSinkMetrics.Tp gauges() {
    return gauges;
  }

  Phase phase() {
    return phase;
  }

  /** Whether records may still join: replaying or live. */
  boolean isOpen() {
    return OPEN.contains(phase);
  }

  /** The pending intent being replayed; null unless {@link Phase#REPLAYING}. */
  LogEntry.Intent replay() {
    return replay;
  }

  /** Whether triggers may cut the unit now. */
  boolean rotatable() {
    return phase == Phase.LIVE && !unit.isEmpty();
  }

  UnitBuffer unit() {
    return unit;
  }

  /** Hands the buffered unit over (to be written or dropped) and starts an empty one. */
  UnitBuffer takeUnit() {
    UnitBuffer taken = unit;
    unit = new UnitBuffer();
    return taken;
  }

  /** The replay is over (committed or abandoned): records are buffered as usual. */
  void replayed() {
    move(EnumSet.of(Phase.REPLAYING), Phase.LIVE);
    replay = null;
  }

  /** Nothing more joins; returns what was buffered, to be dropped. */
  UnitBuffer closing() {
    move(OPEN, Phase.CLOSING);
    replay = null;
    return takeUnit();
  }

  /** A newer writer claimed the TP; returns what was buffered, to be dropped. */
  UnitBuffer fenced() {
    move(EnumSet.allOf(Phase.class), Phase.FENCED);
    replay = null;
    return takeUnit();
  }

  /** Notes an accepted record, for where a reopened TP must resume. */
  void accepted(long offset) {
    gauges.delivered(offset);
    if (firstAccepted < 0) {
      firstAccepted = offset;
    }
  }

  /** A new generation starts: nothing accepted belongs to it yet. */
  void generationStarted() {
    firstAccepted = -1;
  }

  /**
   * Where this TP must resume if it is reopened with nothing more in its log: after the last
   * commit, else at the first record it accepted; empty when it accepted nothing.
   */
  OptionalLong resumeOffset() {
    OptionalLong committed = committedEnd();
    if (committed.isPresent()) {
      return OptionalLong.of(committed.getAsLong() + 1);
    }
    return firstAccepted >= 0 ? OptionalLong.of(firstAccepted) : OptionalLong.empty();
  }

  /** The last committed offset of the current generation, if any. */
  OptionalLong committedEnd() {
    return log.state().lastCommit().map(c -> OptionalLong.of(c.end())).orElse(OptionalLong.empty());
  }

  private void move(Set<Phase> from, Phase to) {
    if (!from.contains(phase)) {
      throw new IllegalStateException(tp + " cannot move from " + phase + " to " + to);
    }
    phase = to;
  }

  @Override
  public String toString() {
    return tp + " (" + phase + ")";
  }
}
