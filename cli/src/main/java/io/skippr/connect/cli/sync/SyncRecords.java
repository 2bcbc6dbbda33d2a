package io.skippr.connect.cli.sync;

import io.skippr.connect.sink.SourcePositions;
import io.skippr.connect.sink.log.LogEntry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.IntConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A source's records as the lake writer takes them, without Kafka: each source partition is a TP
 * of its own ({@code sync~{pipeline}}, numbered by {@link SyncPartitions}) whose offsets are a
 * sequence the run assigns, continuing where the lake's log for it ends. The source position of
 * each record is kept until the unit that holds it is committed, whose commit records it.
 */
final class SyncRecords implements SourcePositions {
  private final String logTopic;
  private final SyncPartitions partitions;
  private final IntConsumer opened;
  private final Map<Integer, Long> next = new ConcurrentHashMap<>();
  private final Map<TopicPartition, ConcurrentNavigableMap<Long, LogEntry.SourcePosition>>
      positions = new ConcurrentHashMap<>();

  /**
   * @param logTopic the TP logs' topic name, {@code sync~{pipeline}}
   * @param opened told the number of a source partition seen for the first time in this run
   */
  SyncRecords(String logTopic, SyncPartitions partitions, IntConsumer opened) {
    this.logTopic = logTopic;
    this.partitions = partitions;
    this.opened = opened;
  }

  /** The TP log's topic name of a pipeline run without Kafka. */
  static String logTopic(String pipeline) {
    return "sync~" + pipeline;
  }

  /** Where the sequence of a partition continues: after its lake log's last commit. */
  void continueAt(int partition, long nextOffset) {
    next.put(partition, nextOffset);
  }

  TopicPartition tp(int partition) {
    return new TopicPartition(logTopic, partition);
  }

  /** The record as a sink record at the next offset of its source partition's TP. */
  SinkRecord toSink(SourceRecord record, long nowMs) {
    int partition = partitions.numberOf(record.sourcePartition());
    if (!next.containsKey(partition)) {
      next.put(partition, 0L);
      opened.accept(partition);
    }
    long offset = next.merge(partition, 1L, Long::sum) - 1;
    positions
        .computeIfAbsent(tp(partition), tp -> new ConcurrentSkipListMap<>())
        .put(
            offset,
            new LogEntry.SourcePosition(
                SyncPartitions.copy(record.sourcePartition()),
                SyncPartitions.copy(record.sourceOffset())));
    Long timestamp = record.timestamp();
    return new SinkRecord(
        record.topic(),
        partition,
        record.keySchema(),
        record.key(),
        record.valueSchema(),
        record.value(),
        offset,
        timestamp != null ? timestamp : nowMs,
        TimestampType.CREATE_TIME,
        record.headers(),
        logTopic,
        partition,
        offset);
  }

  @Override
  public LogEntry.SourcePosition at(TopicPartition tp, long offset) {
    ConcurrentNavigableMap<Long, LogEntry.SourcePosition> known = positions.get(tp);
    return known == null ? null : known.get(offset);
  }

  /** A unit ending at {@code end} was committed: its positions are no longer needed. */
  LogEntry.SourcePosition committed(TopicPartition tp, long end) {
    ConcurrentNavigableMap<Long, LogEntry.SourcePosition> known = positions.get(tp);
    if (known == null) {
      return null;
    }
    LogEntry.SourcePosition position = known.get(end);
    known.headMap(end, true).clear();
    return position;
  }
}
