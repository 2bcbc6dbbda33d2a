package io.skippr.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.write.RecordingContext;
import io.skippr.connect.testkit.DuckDbLake;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task with its real parts (converter, partitioner, Parquet writer), read back by DuckDB. */
class LakeSinkTaskTest {
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .name("Order")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("ts", Timestamp.SCHEMA)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
          .build();

  @TempDir Path lake;
  @TempDir Path state;

  private static SinkRecord order(int partition, long offset) {
    Struct value =
        new Struct(ORDER)
            .put("id", partition * 1_000_000L + offset)
            .put("name", offset % 5 == 0 ? null : "order-" + offset)
            .put("ts", new java.util.Date(1_767_225_600_000L + offset * 10))
            .put("tags", List.of("a", "b" + offset % 3));
    return new SinkRecord(
        "orders",
        partition,
        Schema.STRING_SCHEMA,
        "k" + offset,
        ORDER,
        value,
        offset,
        1_767_225_600_000L + offset * 10,
        TimestampType.CREATE_TIME);
  }

  private static boolean reached(
      Map<TopicPartition, OffsetAndMetadata> offsets, List<TopicPartition> tps, long end) {
    return tps.stream().allMatch(tp -> offsets.containsKey(tp) && offsets.get(tp).offset() >= end);
  }

  @Test
  void writesEveryRecordOnceAcrossUnitsAndReportsOnlyCommittedOffsets() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "lake");
    props.put("topics.dir", lake.toUri().toString());
    props.put("flush.size", "700");
    props.put("include.kafka.metadata", "true");
    // Progress is mirrored to a store of this test's own: a shared one would resume a new lake.
    props.put("store.rocksdb.path", state.toString());
    LakeSinkTask task = new LakeSinkTask();
    RecordingContext context = new RecordingContext(false);
    task.initialize(context);
    task.start(props);
    List<TopicPartition> tps =
        List.of(new TopicPartition("orders", 0), new TopicPartition("orders", 1));
    task.open(tps);
    long perPartition = Long.getLong("sinktest.records", 2000);
    long started = System.nanoTime();
    for (long from = 0; from < perPartition; from += 250) {
      List<SinkRecord> batch = new ArrayList<>();
      for (TopicPartition tp : tps) {
        for (long o = from; o < Math.min(perPartition, from + 250); o++) {
          batch.add(order(tp.partition(), o));
        }
      }
      task.put(batch);
    }
    long elapsed = System.nanoTime() - started;
    // Like Connect, ask again until the last unit (written in the background) is committed.
    Map<TopicPartition, OffsetAndMetadata> committed = task.preCommit(Map.of());
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!reached(committed, tps, 1400) && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      committed = task.preCommit(Map.of());
    }
    task.stop();
    System.out.printf(
        "lake sink task: %d records in %.1f ms (%.0f records/s)%n",
        2 * perPartition, elapsed / 1e6, 2 * perPartition / (elapsed / 1e9));

    assertThat(committed.get(tps.get(0)).offset()).isEqualTo(1400);
    assertThat(committed.get(tps.get(1)).offset()).isEqualTo(1400);
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      assertThat(duck.count("select count(*) from ${table:orders}")).isEqualTo(2800);
      assertThat(duck.count("select count(distinct id) from ${table:orders}")).isEqualTo(2800);
      assertThat(
              duck.count(
                  "select count(*) from ${table:orders} where id <> __partition * 1000000 + __offset"
                      + " or partition <> __partition"))
          .isZero();
      assertThat(duck.count("select max(__offset) from ${table:orders} where __partition = 1"))
          .isEqualTo(1399);
    }
  }
}
