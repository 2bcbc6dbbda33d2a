package io.skippr.connect.sink.bench;

import io.skippr.connect.lake.bench.BenchRows;
import io.skippr.connect.lake.session.LakeSession;
import io.skippr.connect.lake.write.LakeWriter;
import io.skippr.connect.lake.write.RecordingContext;
import io.skippr.connect.sink.LakeSinkTask;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.Converter;

/**
 * Drives a real {@link LakeSinkTask} the way a worker does, without Kafka: open one partition, put
 * batches of 500 records (Connect's default {@code max.poll.records}), call preCommit every 20
 * batches, until a commit covers the rows asked for. Only put and preCommit are timed; each batch
 * is made right before its put.
 */
final class SinkTaskRun {
  static final String TOPIC = "orders";
  static final int BATCH = 500;
  private static final int COMMIT_EVERY = 20;

  /**
   * What one run measured.
   *
   * @param rows the rows committed: at least those asked for, up to the end of the unit that
   *     covered the last of them
   */
  record Result(long rows, Stopwatch time, long peakBufferedBytes, int pauses) {}

  /**
   * The task's own threads (file writers, and the commit thread with {@code write.async}); their
   * CPU time over the run is added to the timed sections'.
   */
  static final String TASK_THREADS = "lake-sink-";

  private SinkTaskRun() {}

  /** The task settings every run shares; {@code extra} adds to or overrides them. */
  static Map<String, String> props(Path lake, long flushSize, Map<String, String> extra) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "bench");
    props.put("topics.dir", lake.resolve("lake").toString());
    props.put("store.rocksdb.path", lake.resolve("state").toString());
    props.put("flush.size", Long.toString(flushSize));
    props.putAll(extra);
    return props;
  }

  static Result run(
      Map<String, String> props,
      long rows,
      int regions,
      BenchRows.Values values,
      Consumer<LakeWriter> afterBatch)
      throws Exception {
    return run(props, rows, regions, BenchRows.Payload.FLAT, values, afterBatch);
  }

  static Result run(
      Map<String, String> props,
      long rows,
      int regions,
      BenchRows.Payload payload,
      BenchRows.Values values,
      Consumer<LakeWriter> afterBatch)
      throws Exception {
    return run(props, rows, regions, payload, values, null, afterBatch);
  }

  /**
   * As above; with a {@code converter}, each batch is made as JSON before the clock starts and read
   * by the converter while it runs, as a worker's task thread reads records before put.
   */
  static Result run(
      Map<String, String> props,
      long rows,
      int regions,
      BenchRows.Payload payload,
      BenchRows.Values values,
      Converter converter,
      Consumer<LakeWriter> afterBatch)
      throws Exception {
    TopicPartition tp = new TopicPartition(TOPIC, 0);
    RecordingContext context = new RecordingContext(false);
    LakeSinkTask task = new LakeSinkTask();
    task.initialize(context);
    task.start(props);
    Stopwatch time = new Stopwatch();
    BenchRows.Json json = new BenchRows.Json();
    Map<Long, Long> writersBefore = Stopwatch.threadCpu(TASK_THREADS);
    try {
      task.open(List.of(tp));
      LakeWriter writer = writer(task);
      int batches = 0;
      long committed = 0;
      // Past rows only until a commit covers them: units cut by memory end anywhere.
      for (long from = 0; committed < rows; from += BATCH) {
        if (from >= 2 * rows + BATCH) {
          throw new IllegalStateException("nothing committed beyond offset " + committed);
        }
        // Made right before put, as a worker converts a batch just before delivering it.
        List<SinkRecord> batch = null;
        List<byte[]> bytes = null;
        if (converter == null) {
          batch = BenchRows.records(payload, TOPIC, from, BATCH, regions, values, json);
        } else {
          bytes = BenchRows.json(payload, from, BATCH, regions, values, json);
        }
        time.start();
        if (converter != null) {
          batch = BenchRows.converted(TOPIC, from, bytes, converter);
        }
        task.put(batch);
        if (++batches % COMMIT_EVERY == 0 || from + BATCH >= rows) {
          OffsetAndMetadata end = task.preCommit(consumed(tp, from + BATCH)).get(tp);
          committed = end == null ? 0 : end.offset();
        }
        time.stop();
        afterBatch.accept(writer);
      }
      time.addThreadCpu(writersBefore, Stopwatch.threadCpu(TASK_THREADS));
      return new Result(committed, time, writer.peakBufferedBytes(), context.pauseCalls.size());
    } finally {
      task.close(List.of(tp));
      task.stop();
    }
  }

  /** The task's writer, for its buffer accounting (the task does not expose it). */
  static LakeWriter writer(LakeSinkTask task) throws ReflectiveOperationException {
    var field = LakeSinkTask.class.getDeclaredField("session");
    field.setAccessible(true);
    return ((LakeSession) field.get(task)).writer();
  }

  private static Map<TopicPartition, OffsetAndMetadata> consumed(TopicPartition tp, long next) {
    return Map.of(tp, new OffsetAndMetadata(next));
  }
}
