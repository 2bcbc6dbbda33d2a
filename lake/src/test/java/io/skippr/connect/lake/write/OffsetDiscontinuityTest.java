package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.log.GenerationConfig;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * Offsets the lake cannot account for (a recreated topic, records that expired before they landed)
 * fail the task with a message by default, and start a new generation of the TP when configured.
 */
class OffsetDiscontinuityTest {
  private static final TopicPartition TP0 = new TopicPartition(LakeHarness.TOPIC, 0);

  private final InMemoryLakeStorage lake = new InMemoryLakeStorage();
  private final LakeInspector inspector = new LakeInspector(lake);

  private static LakeHarness harness(long records, GenerationConfig.Behavior behavior) {
    LakeHarness h = new LakeHarness(1, records);
    h.rotation = new RotationConfig(10, 0, -1, 1000, 1L << 30);
    h.onDiscontinuity = behavior;
    return h;
  }

  /** Delivers a batch after the worker applied the seeks the writer asked for. */
  private static void poll(LakeHarness h, int batch) {
    h.applySeeks();
    h.deliver(batch);
  }

  private static void drain(LakeHarness h) {
    h.applySeeks();
    while (h.deliver(7)) {
      h.commitOffsets();
      h.applySeeks();
    }
    h.flushBySchedule();
    h.writer.awaitInFlight();
    h.commitOffsets();
  }

  /** Offsets in the lake per unit id. */
  private Map<String, List<Long>> offsetsByUnit() throws IOException {
    Map<String, List<Long>> units = new TreeMap<>();
    for (LogEntry.Commit commit : inspector.commits(TP0)) {
      List<Long> offsets = new ArrayList<>();
      for (var file : commit.files()) {
        offsets.addAll(inspector.offsetsIn(file.key()));
      }
      units.put(commit.id(), offsets);
    }
    return units;
  }

  private static List<Long> range(long from, long to) {
    List<Long> offsets = new ArrayList<>();
    for (long o = from; o < to; o++) {
      offsets.add(o);
    }
    return offsets;
  }

  /** Lands 30 records, then the topic is deleted and recreated with 20 and reopened. */
  private static LakeHarness landThenRecreate(
      InMemoryLakeStorage lake, GenerationConfig.Behavior behavior) {
    LakeHarness h = harness(30, behavior);
    h.start(lake);
    drain(h);
    h.perPartition = 20;
    h.values = (partition, offset) -> WriterDoubles.value(partition, offset, "new", 100);
    h.writer.close(List.of(TP0));
    h.writer.open(List.of(TP0)); // the rebalance after the topic came back
    return h;
  }

  @Test
  void aRecreatedTopicFailsTheTaskWithAMessageAndWritesNothing() throws IOException {
    LakeHarness h = landThenRecreate(lake, GenerationConfig.Behavior.FAIL);
    poll(h, 5); // 0 arrives: the consumer reset to the earliest record
    assertThat(h.context.seeks).containsEntry(TP0, 30L);
    assertThatThrownBy(() -> poll(h, 5))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("orders-0 delivered offset 0, below offset 30")
        .hasMessageContaining("recreated")
        .hasMessageContaining("behavior.on.offset.discontinuity=new_generation");
    assertThat(inspector.commits(TP0)).hasSize(3);
    assertThat(h.writer.preCommit().get(TP0).offset()).isEqualTo(30);
  }

  @Test
  void aRecreatedTopicLandsAsANewGenerationWhenConfigured() throws IOException {
    LakeHarness h = landThenRecreate(lake, GenerationConfig.Behavior.NEW_GENERATION);
    drain(h);

    Map<String, List<Long>> units = offsetsByUnit();
    List<Long> generationZero = new ArrayList<>();
    List<Long> generationOne = new ArrayList<>();
    units.forEach(
        (id, offsets) -> (id.contains("+g1+") ? generationOne : generationZero).addAll(offsets));
    assertThat(generationZero).containsExactlyInAnyOrderElementsOf(range(0, 30));
    assertThat(generationOne).containsExactlyInAnyOrderElementsOf(range(0, 20));
    assertThat(units.keySet()).contains("orders+0+g1+00000000000000000000+00000000000000000009");
    assertThat(inspector.entries(TP0))
        .filteredOn(LogEntry.Generation.class::isInstance)
        .singleElement()
        .satisfies(
            entry -> {
              LogEntry.Generation generation = (LogEntry.Generation) entry;
              assertThat(generation.generation()).isEqualTo(1);
              assertThat(generation.startOffset()).isZero();
              assertThat(generation.previousEnd()).isEqualTo(29);
            });
    assertThat(h.committed).containsEntry(TP0, 20L);
  }

  @Test
  void bufferedRecordsOfTheOldTopicAreCommittedBeforeTheNewGenerationStarts() throws IOException {
    LakeHarness h = harness(30, GenerationConfig.Behavior.NEW_GENERATION);
    h.writeAsync = true;
    h.start(lake);
    h.applySeeks();
    h.deliver(25); // 0..19 committed, 20..24 buffered
    h.perPartition = 20; // recreated while the task runs: the consumer resets to 0
    h.position.put(TP0, 0L);
    h.deliver(5);
    drain(h);

    Map<String, List<Long>> units = offsetsByUnit();
    assertThat(units.get("orders+0+00000000000000000020+00000000000000000024"))
        .containsExactlyInAnyOrderElementsOf(range(20, 25));
    List<Long> generationOne = new ArrayList<>();
    units.forEach(
        (id, offsets) -> {
          if (id.contains("+g1+")) {
            generationOne.addAll(offsets);
          }
        });
    assertThat(generationOne).containsExactlyInAnyOrderElementsOf(range(0, 20));
  }

  /** Lands 0..9, stops; then 10..59 are produced and 10..39 expire before a new task starts. */
  private static LakeHarness landThenExpire(
      InMemoryLakeStorage lake, GenerationConfig.Behavior behavior) {
    LakeHarness h = harness(10, behavior);
    h.start(lake);
    drain(h);
    h.writer.stop();
    h.perPartition = 60;
    h.logStart.put(TP0, 40L);
    h.start(lake);
    return h;
  }

  @Test
  void recordsThatExpiredBeforeTheyLandedFailTheTask() throws IOException {
    LakeHarness h = landThenExpire(lake, GenerationConfig.Behavior.FAIL);
    poll(h, 5); // 40 instead of 10: seek back once
    poll(h, 5); // 40 again: probe where Kafka starts
    assertThat(h.context.seeks).containsEntry(TP0, 0L);
    assertThatThrownBy(() -> poll(h, 5))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("resumes orders-0 at offset 10")
        .hasMessageContaining("first record Kafka still holds is at 40")
        .hasMessageContaining("10..39 expired");
    assertThat(inspector.commits(TP0)).hasSize(1);
  }

  @Test
  void recordsAfterAnExpiredRangeLandAsANewGenerationWhenConfigured() throws IOException {
    LakeHarness h = landThenExpire(lake, GenerationConfig.Behavior.NEW_GENERATION);
    drain(h);

    List<Long> landed = new ArrayList<>();
    offsetsByUnit().values().forEach(landed::addAll);
    List<Long> expected = range(0, 10);
    expected.addAll(range(40, 60));
    assertThat(landed).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(offsetsByUnit().keySet())
        .contains("orders+0+g1+00000000000000000040+00000000000000000049");
  }
}
