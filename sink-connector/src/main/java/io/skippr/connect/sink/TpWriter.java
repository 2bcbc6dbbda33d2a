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

  TpWriter(TopicPartition tp, TpLog log, LogEntry.Intent replay, OptionalLong seekOffset) {
    this.tp = tp;
    this.log = log;
    this.replay = replay;
    this.highestSeen = seekOffset.isPresent() ? seekOffset.getAsLong() - 1 : -1;
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
