package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.RowConverter;
import io.skippr.connect.lake.format.LakeFileWriter;
import io.skippr.connect.lake.log.GenerationConfig;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.maintenance.CompactionConfig;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.maintenance.LateWrites;
import io.skippr.connect.lake.maintenance.RetentionConfig;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;
import io.skippr.connect.lake.partition.Partitioner;
import io.skippr.connect.lake.publish.ListenerFactory;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.schema.SchemaEvolution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Plays Kafka and the Connect worker for a {@link LakeWriter}: a topic whose partitions hold
 * records at offsets {@code 0..n-1}, consumer positions, the group's committed offsets (only what
 * preCommit returned), and writer generations that replace a crashed one.
 */
final class LakeHarness {
  static final String TOPIC = "orders";

  /** The table: records reach the sink renamed, as by a topic-renaming transform. */
  static final String TABLE = "lake_orders";

  final int partitions;

  /** The offset after each partition's last record (a recreated topic may hold fewer). */
  long perPartition;

  final WriterDoubles.ManualClock clock = new WriterDoubles.ManualClock(1_700_000_000_000L);
  final Map<TopicPartition, Long> committed = new HashMap<>();
  final Map<TopicPartition, Long> position = new HashMap<>();

  /** The first offset each partition still holds (records below it expired); 0 when absent. */
  final Map<TopicPartition, Long> logStart = new HashMap<>();

  RotationConfig rotation = new RotationConfig(25, 0, -1, 1000, 32L << 20);
  LakeFileWriter fileWriter = new WriterDoubles.OffsetsFileWriter();
  RowConverter converter = new WriterDoubles.StructConverter();
  ProgressMirror mirror = ProgressMirror.NONE;
  ListenerFactory listeners = ListenerFactory.NONE;
  String fingerprint = "cfg-1";

  /** The value at a position; null for a tombstone. */
  ValueSource values =
      (partition, offset) -> WriterDoubles.value(partition, offset, "b" + offset % 3, 100);

  boolean toleratesErrors = true;
  boolean withReporter = true;
  int writeConcurrency = 1;
  boolean writeAsync = false;
  GenerationConfig.Behavior onDiscontinuity = GenerationConfig.Behavior.FAIL;
  WritePolicyConfig.Settings writePolicy = WritePolicyConfig.Settings.APPEND;
  Partitioner partitioner = new WriterDoubles.PathPartitioner();
  LateWrites lateWrites = LateWrites.ACCEPT;
  LakeWriter writer;
  RecordingContext context;
  int generations;

  /** What the topic holds. */
  interface ValueSource {
    Struct value(int partition, long offset);
  }

  LakeHarness(int partitions, long perPartition) {
    this.partitions = partitions;
    this.perPartition = perPartition;
  }

  List<TopicPartition> tps() {
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      tps.add(new TopicPartition(TOPIC, p));
    }
    return tps;
  }

  /** Starts a new writer generation over {@code storage}, positioned where it asks. */
  LakeWriter start(LakeStorage storage) {
    generations++;
    context = new RecordingContext(withReporter);
    WriterSettings settings =
        new WriterSettings(
            rotation,
            fingerprint,
            "gen-" + generations,
            toleratesErrors,
            4,
            writeConcurrency,
            writeAsync,
            onDiscontinuity,
            writePolicy,
            0);
    writer =
        new LakeWriter(
            settings,
            new WriterParts(
                storage,
                converter,
                partitioner,
                fileWriter,
                SchemaEvolution::evolve,
                mirror,
                clock,
                SourcePositions.NONE,
                lateWrites,
                listeners),
            context);
    writer.open(tps());
    for (TopicPartition tp : tps()) {
      position.put(tp, context.seeks.getOrDefault(tp, committed.getOrDefault(tp, 0L)));
    }
    return writer;
  }

  /**
   * Applies the seeks the writer asked for, as the worker does before its next poll: a position
   * outside the records the partition holds resets to its first one, as a consumer with {@code
   * auto.offset.reset=earliest} does.
   */
  void applySeeks() {
    for (Map.Entry<TopicPartition, Long> seek : context.seeks.entrySet()) {
      long start = logStart.getOrDefault(seek.getKey(), 0L);
      long offset = seek.getValue();
      position.put(seek.getKey(), offset < start || offset > perPartition ? start : offset);
    }
    context.seeks.clear();
  }

  /**
   * Delivers up to {@code batch} records of every TP that is not paused in one put; false when none
   * were left.
   */
  boolean deliver(int batch) {
    List<SinkRecord> records = new ArrayList<>();
    for (TopicPartition tp : tps()) {
      if (context.paused.contains(tp)) {
        continue;
      }
      long from = position.get(tp);
      long to = Math.min(perPartition, from + batch);
      for (long offset = from; offset < to; offset++) {
        records.add(record(tp.partition(), offset, values.value(tp.partition(), offset)));
      }
      position.put(tp, to);
    }
    clock.now += 10;
    writer.put(records);
    return !records.isEmpty();
  }

  static SinkRecord record(int partition, long offset, Struct value) {
    return new SinkRecord(
        TABLE,
        partition,
        null,
        null,
        value == null ? null : value.schema(),
        value,
        offset,
        1_000_000L + offset * 1000,
        TimestampType.CREATE_TIME,
        List.of(),
        TOPIC,
        partition,
        offset);
  }

  /** What the worker does on its offset-commit interval. */
  void commitOffsets() {
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e : writer.preCommit().entrySet()) {
      committed.put(e.getKey(), e.getValue().offset());
    }
  }

  /**
   * Delivers every record in puts of {@code batch}, committing offsets after each, as the worker
   * does.
   */
  void deliverAll(int batch) {
    applySeeks();
    while (deliver(batch)) {
      commitOffsets();
    }
    commitOffsets();
  }

  /** Starts a writer over {@code storage} that writes every record, in puts of {@code batch}. */
  LakeWriter writeAll(LakeStorage storage, int batch) {
    LakeWriter started = start(storage);
    deliverAll(batch);
    return started;
  }

  /** The maintenance of {@code writer}'s TPs (append, no retention) on the harness's clock. */
  LakeMaintenance maintenance(
      LakeStorage storage, LakeWriter writer, CompactionConfig.Settings compaction) {
    return LakeMaintenance.create(
        new LakeMaintenance.Settings(
            compaction,
            WritePolicyConfig.Settings.APPEND,
            RetentionConfig.Settings.NONE,
            null,
            FormatConfig.defaults()),
        storage,
        writer::openLogs,
        () -> clock.now,
        "test");
  }

  /** Lets the wall clock pass the schedule so every open unit is written. */
  void flushBySchedule() {
    clock.now += 10 * Math.max(1, rotation.rotateScheduleIntervalMs());
    writer.put(List.of());
  }
}
