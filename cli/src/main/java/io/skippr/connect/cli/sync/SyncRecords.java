package io.skippr.connect.cli.sync;

import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.write.SourcePositions;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.IntConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A source's records as the lake writer takes them, without Kafka: each source partition is a TP of
 * its own ({@code sync~{pipeline}}, numbered by {@link SyncPartitions}) whose offsets are a
 * sequence the run assigns, continuing where the lake's log for it ends. The source position of
 * each record is kept until the unit that holds it is committed, whose commit records it.
 */
final class SyncRecords implements SourcePositions {
  private final String logTopic;
  private final SyncPartitions partitions;
  private final IntConsumer opened;
  private final Map<Integer, Long> next = new ConcurrentHashMap<>();
  private final Map<TopicPartition, ConcurrentNavigableMap<Long, Pending>> positions =
      new ConcurrentHashMap<>();

  /** A record's source position, and how to tell the source it is in the lake. */
  private record Pending(LogEntry.SourcePosition position, SourceAck ack) {}

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

  /**
   * The record as a sink record at the next offset of its source partition's TP.
   *
   * @param ack told once the unit holding the record is committed and its offset stored
   */
  SinkRecord toSink(SourceRecord record, long nowMs, SourceAck ack) {
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
            new Pending(
                new LogEntry.SourcePosition(
                    SyncPartitions.copy(record.sourcePartition()),
                    SyncPartitions.copy(record.sourceOffset())),
                ack));
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
    ConcurrentNavigableMap<Long, Pending> known = positions.get(tp);
    Pending pending = known == null ? null : known.get(offset);
    return pending == null ? null : pending.position();
  }

  /**
   * A unit ending at {@code end} was committed and its offset stored: the source is told its
   * records are processed (Debezium's connectors then acknowledge them to the database), and their
   * positions are forgotten.
   *
   * @return the position the unit ends at
   */
  LogEntry.SourcePosition committed(TopicPartition tp, long end) {
    ConcurrentNavigableMap<Long, Pending> known = positions.get(tp);
    if (known == null) {
      return null;
    }
    Pending last = known.get(end);
    Map<Long, Pending> done = known.headMap(end, true);
    Set<SourceAck.Batches> batches = new LinkedHashSet<>();
    for (Pending pending : done.values()) {
      pending.ack().processed();
      batches.add(pending.ack().batches());
    }
    batches.forEach(SourceAck.Batches::finished);
    done.clear();
    return last == null ? null : last.position();
  }
}
