package io.skippr.connect.sink;

import io.skippr.connect.sink.buffer.UnitBuffer;
import io.skippr.connect.sink.log.LogEntry;
import io.skippr.connect.sink.log.TpLog;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/** What a task holds for one TP it owns: its claimed log, the open unit, and the replay state. */
final class TpWriter {
  final TopicPartition tp;
  final TpLog log;

  /** The pending intent being replayed exactly; null once settled. */
  LogEntry.Intent replay;

  UnitBuffer unit = new UnitBuffer();

  boolean fenced;

  /** Where the lake expected the TP to resume when it was opened; empty when it had no record. */
  final OptionalLong openedAt;

  /** Whether the offsets Kafka delivers continue where the lake expects. */
  final OffsetContinuity continuity;

  /** The offset of the first record this writer accepted, or -1. */
  long firstAccepted = -1;

  /**
   * @param seekOffset where the lake expects the TP to resume; empty when it has no record of it
   */
  TpWriter(TopicPartition tp, TpLog log, LogEntry.Intent replay, OptionalLong seekOffset) {
    this.tp = tp;
    this.log = log;
    this.replay = replay;
    this.openedAt = seekOffset;
    this.continuity = new OffsetContinuity(tp, seekOffset);
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

  /** The last committed offset, if any. */
  OptionalLong committedEnd() {
    return log.state().lastCommit().map(c -> OptionalLong.of(c.end())).orElse(OptionalLong.empty());
  }

  boolean replaying() {
    return replay != null;
  }

  /** Whether size, time and memory triggers may cut this TP's unit now. */
  boolean rotatable() {
    return !fenced && replay == null && !unit.isEmpty();
  }
}
