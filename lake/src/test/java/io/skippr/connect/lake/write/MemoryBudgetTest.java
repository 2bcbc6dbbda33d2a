package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.storage.FaultInjectingStorage;
import io.skippr.connect.lake.storage.FaultInjectingStorage.Op;
import io.skippr.connect.lake.storage.FaultInjectingStorage.When;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/** {@code buffer.max.bytes}: the task never holds much more, and pauses only when it must. */
class MemoryBudgetTest {
  private static final long BUDGET = 32L << 20;
  private static final long LARGEST_ROW = 16_000;

  private final InMemoryLakeStorage lake = new InMemoryLakeStorage();

  @Test
  void aThousandPartitionPathsStayWithinTheBudgetByAtMostOneRecord() throws Exception {
    LakeHarness h = new LakeHarness(2, 3000);
    h.rotation = new RotationConfig(0, 0, -1, 1000, BUDGET);
    h.values = (p, o) -> bulky(p, o, Long.toString(o % 1000), 8000 + (o * 7919) % 8001);
    h.start(lake);
    while (h.deliver(50)) {
      assertThat(h.writer.bufferedBytes()).isLessThanOrEqualTo(BUDGET);
      assertThat(h.writer.pausedPartitions()).isEmpty();
    }
    assertThat(h.writer.peakBufferedBytes())
        .as("peak of the writer's own accounting")
        .isLessThanOrEqualTo(BUDGET + LARGEST_ROW)
        .isGreaterThan(BUDGET);
    LakeInspector inspector = new LakeInspector(lake);
    int memoryUnits = 0;
    for (TopicPartition tp : h.tps()) {
      memoryUnits += inspector.commits(tp).size();
      assertThat(inspector.commits(tp).get(0).files()).hasSizeGreaterThan(900);
    }
    assertThat(memoryUnits).as("units cut by memory pressure").isGreaterThanOrEqualTo(2);
    h.flushBySchedule();
    assertThat(h.writer.bufferedBytes()).isZero();
    inspector.assertExactlyOnce(LakeHarness.TABLE, h.tps(), 3000);
    assertThat(h.context.pauseCalls).isEmpty();
  }

  @Test
  void compactsRowsUnderPressureSoAThousandPathsGetFilesOfMoreRowsWithinTheBudget()
      throws Exception {
    long budget = 4L << 20;
    long estimate = 4000; // per row, by the converter's estimate; a few dozen bytes compacted
    LakeHarness h = new LakeHarness(1, 20_000);
    h.rotation = new RotationConfig(0, 0, -1, 1000, budget);
    h.values = (p, o) -> WriterDoubles.value(p, o, Long.toString(o % 1000), estimate);
    h.start(lake);
    while (h.deliver(100)) {
      assertThat(h.writer.bufferedBytes()).isLessThanOrEqualTo(budget);
    }
    assertThat(h.writer.peakBufferedBytes()).isLessThanOrEqualTo(budget + estimate);
    h.flushBySchedule();
    assertThat(h.writer.bufferedBytes()).isZero();
    LakeInspector inspector = new LakeInspector(lake);
    TopicPartition tp = new TopicPartition(LakeHarness.TOPIC, 0);
    var first = inspector.commits(tp).get(0);
    // As objects the budget holds budget / estimate = 1,048 rows per unit, about one per path.
    assertThat(first.end() - first.start() + 1).isGreaterThan(5 * budget / estimate);
    assertThat(first.files()).hasSize(1000);
    inspector.assertExactlyOnce(LakeHarness.TABLE, h.tps(), 20_000);
    assertThat(h.context.pauseCalls).isEmpty();
  }

  /** A test value whose size estimate is its real size: a string of that many characters. */
  private static Struct bulky(int partition, long offset, String bucket, long size) {
    return WriterDoubles.value(WriterDoubles.WIDER, partition, offset, bucket, size)
        .put("extra", "x".repeat((int) size));
  }

  @Test
  void pausesOtherPartitionsWhileAReplayedUnitHoldsTheMemoryAndResumesAfter() throws Exception {
    TopicPartition tp0 = new TopicPartition(LakeHarness.TOPIC, 0);
    TopicPartition tp1 = new TopicPartition(LakeHarness.TOPIC, 1);
    LakeHarness h = new LakeHarness(2, 120);
    h.values = (p, o) -> bulky(p, o, "x", 1000);
    h.rotation = new RotationConfig(50, 0, -1, 1000, 1L << 30);
    FaultInjectingStorage first = new FaultInjectingStorage(lake);
    first.failAt(Op.CREATE, key -> true, 1, When.BEFORE);
    h.start(first);
    try {
      while (h.deliver(10)) {
        // until the first unit's file fails
      }
    } catch (ConnectException expected) {
      assertThat(first.fired()).isTrue();
    }

    h.rotation = new RotationConfig(50, 0, -1, 1000, 20_000);
    h.start(lake);
    assertThat(h.position).containsEntry(tp0, 0L).containsEntry(tp1, 0L);
    while (h.deliver(10)) {
      assertThat(h.writer.pausedPartitions()).doesNotContain(tp0);
    }
    h.flushBySchedule();

    assertThat(h.context.pauseCalls).containsExactly(Set.of(tp1));
    assertThat(h.context.resumeCalls).containsExactly(Set.of(tp1));
    assertThat(h.writer.pausedPartitions()).isEmpty();
    LakeInspector inspector = new LakeInspector(lake);
    assertThat(inspector.commits(tp0).get(0).end()).as("the replayed unit").isEqualTo(49);
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(tp0, tp1), 120);
  }
}
