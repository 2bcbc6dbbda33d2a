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

  /** The highest offset delivered so far; records at or below it are repeats. */
  long highestSeen;

  boolean fenced;

  /** Whether the resume offset is known (from the log, the mirror or this task's own drop). */
  final boolean resumeKnown;

  /** The first record after opening has been accepted. */
  boolean delivered;

  /** A seek back was requested once; a later gap is real (transaction markers, compaction). */
  boolean rewound;

  /** Records of the current batch are stale until the requested seek takes effect. */
  boolean awaitingRewind;

  /** The offset of the first record this writer accepted, or -1. */
  long firstAccepted = -1;

  TpWriter(TopicPartition tp, TpLog log, LogEntry.Intent replay, OptionalLong seekOffset) {
    this.tp = tp;
    this.log = log;
    this.replay = replay;
    this.highestSeen = seekOffset.isPresent() ? seekOffset.getAsLong() - 1 : -1;
    this.resumeKnown = seekOffset.isPresent();
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
