package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.storage.FaultInjectingStorage;
import io.skippr.connect.lake.storage.FaultInjectingStorage.Op;
import io.skippr.connect.lake.storage.FaultInjectingStorage.When;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.util.List;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * Fencing, replay, abandonment, rejected records and closing. Every record reaches the writer under
 * a renamed topic (as after a topic-renaming transform) with its original position.
 */
class LakeWriterTest {
  private static final TopicPartition TP0 = new TopicPartition(LakeHarness.TOPIC, 0);

  private final InMemoryLakeStorage lake = new InMemoryLakeStorage();
  private final LakeInspector inspector = new LakeInspector(lake);

  private static LakeHarness harness(long records, long flushSize) {
    LakeHarness h = new LakeHarness(1, records);
    h.rotation = new RotationConfig(flushSize, 0, -1, 1000, 1L << 30);
    return h;
  }

  private static void deliverAll(LakeHarness h, int batch) {
    while (h.deliver(batch)) {
      // deliver everything
    }
  }

  @Test
  void anOlderWriterCanNeverPublishOnceANewerOneOpened() throws Exception {
    LakeHarness zombie = harness(20, 10);
    zombie.start(lake);
    zombie.deliver(5);
    LakeHarness owner = harness(20, 10);
    owner.start(lake);

    zombie.deliver(10); // reaches flush.size: its intent append is fenced
    assertThat(zombie.writer.bufferedBytes()).isZero();
    assertThat(zombie.writer.preCommit()).isEmpty();
    zombie.deliver(10);
    zombie.flushBySchedule();
    assertThat(inspector.entries(TP0))
        .allMatch(e -> !(e.epoch() == 1 && !(e instanceof LogEntry.Epoch)));

    deliverAll(owner, 7);
    owner.flushBySchedule();
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0), 20);
    assertThat(inspector.entries(TP0)).filteredOn(e -> e.epoch() == 1).hasSize(1);
  }

  @Test
  void aWriterFencedBetweenItsFilesAndItsCommitLeavesTheUnitToTheNewOwner() throws Exception {
    LakeHarness owner = harness(20, 10);
    FaultInjectingStorage zombieStorage = new FaultInjectingStorage(lake);
    zombieStorage.runBefore(Op.COMPLETE, 2, () -> owner.start(lake));
    LakeHarness zombie = harness(20, 10);
    zombie.values = (p, o) -> WriterDoubles.value(p, o, "b" + o % 2, 100);
    owner.values = zombie.values;
    zombie.start(zombieStorage);

    zombie.deliver(10); // intent, file 1, (owner opens), file 2, commit → fenced
    assertThat(zombieStorage.fired()).isTrue();
    assertThat(zombie.writer.preCommit()).isEmpty();
    assertThat(owner.position.get(TP0)).as("owner replays the zombie's intent").isZero();

    deliverAll(owner, 3);
    owner.flushBySchedule();
    List<LogEntry.Commit> commits = inspector.commits(TP0);
    assertThat(commits.get(0).epoch()).isEqualTo(2);
    assertThat(commits.get(0).id()).isEqualTo("orders+0+00000000000000000000+00000000000000000009");
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0), 20);
  }

  @Test
  void aReplayUsesTheIntentsWallClockAndFileNames() throws Exception {
    LakeHarness h = harness(10, 5);
    h.values = (p, o) -> WriterDoubles.value(p, o, "wc", 100);
    FaultInjectingStorage first = new FaultInjectingStorage(lake);
    first.failAt(Op.CREATE, key -> true, 1, When.BEFORE);
    h.start(first);
    assertThatThrownBy(() -> h.deliver(5)).isInstanceOf(ConnectException.class);
    LogEntry.Intent intent = (LogEntry.Intent) inspector.entries(TP0).get(1);
    long firstClock = intent.wallclockMs();
    assertThat(intent.files())
        .containsExactly("lake_orders/wc=" + firstClock + "/" + intent.id() + ".txt");

    h.clock.now += 3_600_000;
    h.start(lake);
    assertThat(h.position.get(TP0)).isZero();
    h.deliver(5);
    List<LogEntry.Commit> commits = inspector.commits(TP0);
    assertThat(commits).hasSize(1);
    assertThat(commits.get(0).files().stream().map(LiveFile::key))
        .containsExactlyElementsOf(intent.files());
    h.deliver(5);
    String second = inspector.commits(TP0).get(1).files().get(0).key();
    assertThat(second).startsWith("lake_orders/wc=" + h.clock.now + "/");
    assertThat(h.clock.now - firstClock).isGreaterThanOrEqualTo(3_600_000);
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0), 10);
  }

  @Test
  void aPendingUnitOfOtherSettingsIsAbortedAndPlannedAnew() throws Exception {
    LakeHarness h = harness(12, 6);
    FaultInjectingStorage first = new FaultInjectingStorage(lake);
    first.failAt(Op.COMPLETE, key -> true, 2, When.AFTER);
    h.start(first);
    assertThatThrownBy(() -> h.deliver(6)).isInstanceOf(ConnectException.class);
    LogEntry.Intent stale = (LogEntry.Intent) inspector.entries(TP0).get(1);
    assertThat(lake.exists(stale.files().get(0))).isTrue();

    h.fingerprint = "cfg-2";
    h.rotation = new RotationConfig(4, 0, -1, 1000, 1L << 30);
    h.start(lake);
    List<LogEntry> entries = inspector.entries(TP0);
    assertThat(entries.get(entries.size() - 1))
        .isEqualTo(new LogEntry.Abort(stale.id(), 2, "settings changed since the intent"));
    for (String key : stale.files()) {
      assertThat(lake.exists(key)).as(key).isFalse();
    }
    deliverAll(h, 5);
    h.flushBySchedule();
    assertThat(inspector.commits(TP0).stream().map(LogEntry.Commit::end))
        .containsExactly(3L, 7L, 11L);
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0), 12);
  }

  @Test
  void rejectedRecordsGoToTheReporterWithTheirPositionAndStillAdvanceTheOffsets() throws Exception {
    LakeHarness h = harness(10, 10);
    h.values =
        (p, o) -> {
          if (o == 3) {
            return WriterDoubles.value(p, o, "x", 100).put("reject", true);
          }
          if (o == 7) {
            return null;
          }
          return WriterDoubles.value(p, o, o == 5 ? "missing" : "x", 100);
        };
    h.start(lake);
    h.deliver(10);
    assertThat(h.context.reported.stream().map(r -> r.originalKafkaOffset()))
        .containsExactly(3L, 5L);
    assertThat(h.context.reasons.stream().map(Throwable::getMessage))
        .containsExactly("rejected on purpose", "no partition value");
    assertThat(inspector.commits(TP0)).hasSize(1);
    LogEntry.Commit commit = inspector.commits(TP0).get(0);
    assertThat(commit.end()).isEqualTo(9);
    assertThat(inspector.offsetsIn(commit.files().get(0).key()))
        .containsExactly(0L, 1L, 2L, 4L, 6L, 8L, 9L);
    assertThat(h.writer.preCommit().get(TP0).offset()).isEqualTo(10);
  }

  @Test
  void withoutToleranceARejectedRecordFailsTheTaskNamingItsPosition() {
    for (boolean reporter : new boolean[] {true, false}) {
      LakeHarness h = harness(10, 10);
      h.toleratesErrors = !reporter;
      h.withReporter = reporter;
      h.values = (p, o) -> WriterDoubles.value(p, o, "x", 100).put("reject", o == 4 ? true : null);
      h.start(new InMemoryLakeStorage());
      assertThatThrownBy(() -> h.deliver(10))
          .isInstanceOf(ConnectException.class)
          .hasMessage("Rejected record at topic orders partition 0 offset 4: rejected on purpose");
      assertThat(h.context.reported).isEmpty();
    }
  }

  /**
   * Connect takes an offset a task seeks to as committed, without metadata, and skips a commit of
   * an equal one; so a TP reopened at the lake's end must report an offset that differs in its
   * metadata, or a group offset left behind by a revocation would stay behind on an idle TP.
   */
  @Test
  void aReopenedTpReportsItsOffsetWithTheLakesIdSoConnectCommitsIt() {
    LakeHarness first = harness(10, 10);
    first.start(lake);
    deliverAll(first, 10);
    first.writer.stop(); // the unit landed, its offset was never committed to the group

    LakeHarness next = harness(10, 10);
    next.start(lake);
    assertThat(next.context.seeks).containsEntry(TP0, 10L);
    OffsetAndMetadata sought = new OffsetAndMetadata(10); // what Connect records for the seek
    OffsetAndMetadata reported = next.writer.preCommit().get(TP0);
    assertThat(reported.offset()).isEqualTo(10);
    assertThat(reported).isNotEqualTo(sought);
    assertThat(reported.metadata())
        .isEqualTo(LakeWriter.OFFSET_METADATA_PREFIX + next.writer.lake().id());
  }

  @Test
  void closingDropsBufferedRecordsAndRepeatedRecordsAreIgnored() throws Exception {
    LakeHarness h = harness(10, 10);
    h.start(lake);
    h.deliver(4);
    h.position.put(TP0, 2L);
    h.deliver(4); // offsets 2..5: 2 and 3 are repeats, so the TP is sought past them
    assertThat(h.context.seeks).containsEntry(TP0, 4L);
    assertThat(h.writer.bufferedBytes()).isEqualTo(4 * 100);
    h.applySeeks();
    h.deliver(2);
    assertThat(h.writer.bufferedBytes()).isEqualTo(6 * 100);
    h.writer.close(List.of(TP0));
    assertThat(h.writer.bufferedBytes()).isZero();
    assertThat(h.writer.preCommit()).isEmpty();
    h.start(lake);
    deliverAll(h, 4);
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0), 10);
  }
}
