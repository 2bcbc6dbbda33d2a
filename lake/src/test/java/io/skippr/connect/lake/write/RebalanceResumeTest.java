package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * A consumer keeps its fetch position for partitions that stay assigned across an eager rebalance,
 * and records fetched before a seek can still arrive after it. Neither may skip offsets.
 */
class RebalanceResumeTest {
  private static final TopicPartition TP0 = new TopicPartition(LakeHarness.TOPIC, 0);

  private final InMemoryLakeStorage lake = new InMemoryLakeStorage();
  private final LakeInspector inspector = new LakeInspector(lake);

  private static LakeHarness harness(long records, long flushSize) {
    LakeHarness h = new LakeHarness(1, records);
    h.rotation = new RotationConfig(flushSize, 0, -1, 1000, 1L << 30);
    return h;
  }

  @Test
  void aPartitionReassignedToTheSameTaskResumesAtTheFirstDroppedOffset() throws Exception {
    LakeHarness h = harness(30, 10);
    h.start(lake);
    h.deliver(7); // 0..6 buffered, nothing committed
    h.writer.close(List.of(TP0));
    h.context.seeks.clear();

    h.writer.open(List.of(TP0)); // the consumer still stands at 7
    assertThat(h.context.seeks).containsEntry(TP0, 0L);
    h.position.put(TP0, h.context.seeks.get(TP0));
    while (h.deliver(4)) {
      h.commitOffsets();
    }
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0), 30);
  }

  @Test
  void recordsBeyondTheResumeOffsetAreSkippedUntilTheSeekBackTakesEffect() throws Exception {
    LakeHarness h = harness(30, 10);
    h.start(lake);
    h.deliver(10); // unit 0..9 committed
    h.writer.close(List.of(TP0));
    h.context.seeks.clear();
    h.writer.open(List.of(TP0));
    assertThat(h.context.seeks).containsEntry(TP0, 10L);

    // Records fetched from an older position arrive first: 14..16 must not start a unit.
    h.writer.put(
        List.of(
            LakeHarness.record(0, 14, h.values.value(0, 14)),
            LakeHarness.record(0, 15, h.values.value(0, 15))));
    assertThat(h.context.seeks).containsEntry(TP0, 10L);
    assertThat(h.writer.bufferedBytes()).isZero();

    h.position.put(TP0, 10L);
    while (h.deliver(5)) {
      h.commitOffsets();
    }
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0), 30);
  }

  @Test
  void aGapOverOffsetsKafkaStillHoldsIsAcceptedAfterAProbe() throws Exception {
    LakeHarness h = harness(20, 5);
    h.start(lake);
    h.deliver(5);
    h.writer.close(List.of(TP0));
    h.context.seeks.clear();
    h.writer.open(List.of(TP0));
    // Offset 5 holds a transaction marker: the topic delivers 6 even after the seek back to 5.
    SinkRecord six = LakeHarness.record(0, 6, h.values.value(0, 6));
    h.writer.put(List.of(six));
    assertThat(h.writer.bufferedBytes()).isZero();
    h.writer.put(List.of(six));
    assertThat(h.writer.bufferedBytes()).isZero();
    assertThat(h.context.seeks).as("probes where Kafka starts").containsEntry(TP0, 0L);
    h.writer.put(List.of(LakeHarness.record(0, 0, h.values.value(0, 0))));
    assertThat(h.context.seeks).as("Kafka holds 0..: back to 5").containsEntry(TP0, 5L);
    h.writer.put(List.of(six));
    assertThat(h.writer.bufferedBytes()).isPositive();
  }
}
