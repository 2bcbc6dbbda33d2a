package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.convert.ParquetSchemas;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Each rotation trigger cuts units where it should, and preCommit follows only the commits. */
class RotationTest {
  private static final TopicPartition TP0 = new TopicPartition(LakeHarness.TOPIC, 0);

  private final InMemoryLakeStorage lake = new InMemoryLakeStorage();
  private final LakeInspector inspector = new LakeInspector(lake);

  private LakeHarness harness(long records, RotationConfig rotation) {
    LakeHarness harness = new LakeHarness(1, records);
    harness.rotation = rotation;
    harness.start(lake);
    return harness;
  }

  private List<long[]> units() throws IOException {
    return inspector.commits(TP0).stream().map(c -> new long[] {c.start(), c.end()}).toList();
  }

  private static Map<TopicPartition, Long> offsets(Map<TopicPartition, OffsetAndMetadata> m) {
    return Map.copyOf(
        m.entrySet().stream()
            .collect(
                java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset())));
  }

  @Test
  void flushSizeCutsUnitsOfExactlyThatManyRecords() throws IOException {
    LakeHarness h = harness(35, new RotationConfig(10, 0, -1, -1, 1L << 30));
    assertThat(h.writer.preCommit()).isEmpty();
    while (h.deliver(4)) {
      // deliver everything
    }
    assertThat(units())
        .containsExactly(new long[] {0, 9}, new long[] {10, 19}, new long[] {20, 29});
    assertThat(offsets(h.writer.preCommit())).isEqualTo(Map.of(TP0, 30L));
    assertThat(h.writer.bufferedBytes()).isEqualTo(5 * 100);
  }

  @Test
  void flushBytesCutsUnitsAtTheEstimatedSize() throws IOException {
    LakeHarness h = harness(25, new RotationConfig(0, 1000, -1, -1, 1L << 30));
    while (h.deliver(3)) {
      // deliver everything
    }
    assertThat(units()).containsExactly(new long[] {0, 9}, new long[] {10, 19});
  }

  @Test
  void rotateIntervalKeepsEachUnitsRecordTimesWithinTheInterval() throws IOException {
    // Record timestamps are 1000 ms apart (see LakeHarness.record).
    LakeHarness h = harness(12, new RotationConfig(0, 0, 5000, -1, 1L << 30));
    while (h.deliver(12)) {
      // deliver everything
    }
    assertThat(units()).containsExactly(new long[] {0, 4}, new long[] {5, 9});
  }

  @Test
  void scheduleRotatesOnTheWallClockEvenWithoutNewRecords() throws IOException {
    LakeHarness h = harness(3, new RotationConfig(0, 0, -1, 60_000, 1L << 30));
    h.clock.now = 28_333_333L * 60_000; // a multiple of 60 s
    h.deliver(3);
    h.clock.now = 28_333_334L * 60_000 - 1;
    h.writer.put(List.of());
    assertThat(units()).isEmpty();
    h.clock.now = 28_333_334L * 60_000;
    h.writer.put(List.of());
    assertThat(units()).containsExactly(new long[] {0, 2});
    assertThat(offsets(h.writer.preCommit())).isEqualTo(Map.of(TP0, 3L));
  }

  @Test
  void widenableSchemaKeepsBufferingUnderTheWidenedSchema() throws IOException {
    LakeHarness h = new LakeHarness(1, 6);
    h.rotation = new RotationConfig(6, 0, -1, -1, 1L << 30);
    h.values =
        (p, o) ->
            o < 3
                ? WriterDoubles.value(p, o, "x", 100)
                : WriterDoubles.value(WriterDoubles.WIDER, p, o, "x", 100).put("extra", "e" + o);
    h.start(lake);
    h.deliver(6);
    List<LogEntry.Commit> commits = inspector.commits(TP0);
    assertThat(commits).hasSize(1);
    LiveFile file = commits.get(0).files().get(0);
    assertThat(file.rows()).isEqualTo(6);
    assertThat(file.schemaFingerprint()).isEqualTo(ParquetSchemas.fingerprint(WriterDoubles.WIDER));
  }

  @Test
  void incompatibleSchemaRotatesBeforeTheRecordThatChangesIt() throws IOException {
    LakeHarness h = new LakeHarness(1, 8);
    h.rotation = new RotationConfig(100, 0, -1, 1000, 1L << 30);
    h.values =
        (p, o) ->
            o < 5
                ? WriterDoubles.value(p, o, "7", 100)
                : WriterDoubles.value(WriterDoubles.CLASHING, p, o, 7, 100);
    h.start(lake);
    h.deliver(8);
    assertThat(units()).containsExactly(new long[] {0, 4});
    h.flushBySchedule();
    assertThat(units()).containsExactly(new long[] {0, 4}, new long[] {5, 7});
    List<LogEntry.Commit> commits = inspector.commits(TP0);
    assertThat(commits.get(0).files().get(0).schemaFingerprint())
        .isEqualTo(ParquetSchemas.fingerprint(WriterDoubles.VALUE));
    assertThat(commits.get(1).files().get(0).schemaFingerprint())
        .isEqualTo(ParquetSchemas.fingerprint(WriterDoubles.CLASHING));
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0), 8);
  }

  @Test
  void rowsOfOneUnitSplitIntoOneFilePerPartitionPath() throws IOException {
    LakeHarness h = harness(9, new RotationConfig(9, 0, -1, -1, 1L << 30));
    h.deliver(9);
    List<String> keys = inspector.commits(TP0).get(0).files().stream().map(LiveFile::key).toList();
    assertThat(keys)
        .containsExactly(
            "lake_orders/p=b0/orders+0+00000000000000000000+00000000000000000008.txt",
            "lake_orders/p=b1/orders+0+00000000000000000000+00000000000000000008.txt",
            "lake_orders/p=b2/orders+0+00000000000000000000+00000000000000000008.txt");
    assertThat(inspector.offsetsIn(keys.get(1))).containsExactly(1L, 4L, 7L);
  }
}
