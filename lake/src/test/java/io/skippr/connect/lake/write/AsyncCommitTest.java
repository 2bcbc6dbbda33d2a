package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.storage.FaultInjectingStorage;
import io.skippr.connect.lake.storage.FaultInjectingStorage.Op;
import io.skippr.connect.lake.storage.FaultInjectingStorage.When;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import io.skippr.connect.testkit.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * Units written in the background ({@code write.async}) while the task buffers the next records.
 */
class AsyncCommitTest {
  private static final TopicPartition TP0 = new TopicPartition(LakeHarness.TOPIC, 0);

  private static LakeHarness harness(int partitions, long records, RotationConfig rotation) {
    LakeHarness h = new LakeHarness(partitions, records);
    h.rotation = rotation;
    h.writeAsync = true;
    h.writeConcurrency = 3;
    // Three paths per unit, so the files of a unit are written side by side too.
    h.values = (p, o) -> WriterDoubles.value(p, o, "b" + o % 3, 100);
    return h;
  }

  private static void deliverAll(LakeHarness h, int batch) {
    while (h.deliver(batch)) {
      // deliver everything
    }
  }

  /** Delivers the rest, lets every unit be written, and checks the lake holds each offset once. */
  private static void deliverEverythingAndCheck(
      LakeHarness h, int batch, InMemoryLakeStorage lake, long perPartition) throws IOException {
    deliverAll(h, batch);
    h.flushBySchedule();
    h.writer.awaitInFlight();
    h.commitOffsets();
    new LakeInspector(lake).assertExactlyOnce(LakeHarness.TABLE, h.tps(), perPartition);
  }

  @Test
  void theLakeIsTheSameAsWhenUnitsAreWrittenInsidePut() throws IOException {
    RotationConfig rotation = new RotationConfig(25, 0, -1, 1000, 1L << 30);
    InMemoryLakeStorage inPut = new InMemoryLakeStorage();
    LakeHarness sync = harness(2, 400, rotation);
    sync.writeAsync = false;
    sync.start(inPut);
    deliverAll(sync, 7);
    sync.flushBySchedule();
    sync.writer.awaitInFlight();
    sync.commitOffsets();

    InMemoryLakeStorage background = new InMemoryLakeStorage();
    String identity = new LakeLayout().identityKey();
    background.createIfAbsent(identity, inPut.read(identity)); // log entries name their lake
    LakeHarness async = harness(2, 400, rotation);
    async.start(background);
    deliverAll(async, 7);
    async.flushBySchedule();
    async.writer.awaitInFlight();
    async.commitOffsets();

    assertThat(contents(background)).isEqualTo(contents(inPut));
    assertThat(async.committed).isEqualTo(sync.committed).containsEntry(TP0, 400L);
    new LakeInspector(background).assertExactlyOnce(LakeHarness.TABLE, async.tps(), 400);
  }

  @Test
  void preCommitReportsOnlyCommittedUnitsWithoutWaitingForTheOneInFlight() throws IOException {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    LakeHarness h = harness(1, 100, new RotationConfig(25, 0, -1, 1000, 1L << 30));
    h.start(lake);
    h.deliver(60); // units 0..24 and 25..49 are cut (the second after the first settled)
    assertThat(h.writer.preCommit().get(TP0).offset()).isIn(25L, 50L);
    h.writer.awaitInFlight();
    assertThat(h.writer.preCommit().get(TP0).offset()).isEqualTo(50);
    assertThat(new LakeInspector(lake).commits(TP0)).hasSize(2);
  }

  @Test
  void aStorageFailureInTheBackgroundFailsTheTaskAndNoOffsetPassesTheUnit() throws IOException {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    FaultInjectingStorage storage = new FaultInjectingStorage(lake);
    storage.failAt(Op.COMPLETE, key -> key.endsWith(".txt"), 4, When.BEFORE);
    LakeHarness h = harness(1, 100, new RotationConfig(25, 0, -1, 1000, 1L << 30));
    h.start(storage);
    h.deliver(30); // unit 0..24 written: files 1-3; unit 25..49 not cut yet
    h.writer.awaitInFlight();
    h.commitOffsets();
    assertThatThrownBy(
            () -> {
              h.deliver(30); // cuts 25..49, whose first file fails in the background
              h.writer.awaitInFlight();
            })
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Lake storage failed for " + TP0);
    assertThat(storage.fired()).isTrue();
    assertThat(h.committed).containsEntry(TP0, 25L);

    h.start(lake); // the restarted task replays the pending unit from Kafka
    deliverAll(h, 9);
    h.flushBySchedule();
    h.writer.awaitInFlight();
    h.commitOffsets();
    new LakeInspector(lake).assertExactlyOnce(LakeHarness.TABLE, h.tps(), 100);
  }

  @Test
  void aTpFencedWhileItsUnitIsInFlightIsDroppedAndTheNewOwnerKeepsIt() throws IOException {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    RotationConfig rotation = new RotationConfig(10, 0, -1, 1000, 1L << 30);
    LakeHarness owner = harness(1, 20, rotation);
    FaultInjectingStorage zombieStorage = new FaultInjectingStorage(lake);
    // A newer owner opens the TP between the zombie's files: its commit append is fenced.
    zombieStorage.runBefore(Op.COMPLETE, 2, () -> owner.start(lake));
    LakeHarness zombie = harness(1, 20, rotation);
    zombie.start(zombieStorage);

    zombie.deliver(10);
    zombie.writer.awaitInFlight(); // finds the TP fenced and drops it
    assertThat(zombie.writer.preCommit()).isEmpty();
    assertThat(zombieStorage.fired()).isTrue();
    assertThat(zombie.writer.bufferedBytes()).isZero();
    zombie.deliver(10);
    assertThat(zombie.writer.preCommit()).isEmpty();

    deliverEverythingAndCheck(owner, 3, lake, 20);
  }

  @Test
  void cuttingAPartitionDoesNotWaitForAnotherPartitionsUnitInFlight() throws Exception {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    FaultInjectingStorage storage = new FaultInjectingStorage(lake);
    CountDownLatch released = new CountDownLatch(1);
    AtomicBoolean waitedOut = new AtomicBoolean();
    // The first file of the first unit (TP0's) is held until the test lets it go.
    storage.runBefore(
        Op.COMPLETE,
        1,
        () -> {
          try {
            waitedOut.set(!released.await(10, TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    LakeHarness h = harness(2, 50, new RotationConfig(25, 0, -1, 1000, 1L << 30));
    h.values = (p, o) -> WriterDoubles.value(p, o, "b0", 100);
    h.start(storage);

    h.deliver(25); // cuts TP0's unit, then TP1's while TP0's is held
    Await.until(Duration.ofSeconds(10), "TP0's file being held", storage::fired);
    assertThat(waitedOut).isFalse();
    assertThat(h.writer.preCommit()).isEmpty();
    released.countDown();

    deliverEverythingAndCheck(h, 25, lake, 50);
    assertThat(waitedOut).isFalse();
    assertThat(h.committed)
        .containsEntry(TP0, 50L)
        .containsEntry(new TopicPartition(LakeHarness.TOPIC, 1), 50L);
  }

  @Test
  void closingAPartitionWaitsForItsUnitInFlight() throws IOException {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    LakeHarness h = harness(1, 100, new RotationConfig(25, 0, -1, 1000, 1L << 30));
    h.start(lake);
    h.deliver(30);
    h.writer.close(List.of(TP0));
    assertThat(new LakeInspector(lake).commits(TP0)).hasSize(1);
    assertThat(h.writer.bufferedBytes()).isZero();
  }

  @Test
  void aUnitThatFailsWhileItsPartitionClosesIsLeftToTheNextOwner() throws IOException {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    FaultInjectingStorage storage = new FaultInjectingStorage(lake);
    storage.failAt(Op.COMPLETE, key -> key.endsWith(".txt"), 1, When.BEFORE);
    LakeHarness h = harness(1, 100, new RotationConfig(25, 0, -1, 1000, 1L << 30));
    h.start(storage);
    h.deliver(30);
    h.writer.close(List.of(TP0)); // no exception: nothing of the unit reached Kafka's offsets
    assertThat(storage.fired()).isTrue();
    assertThat(h.writer.bufferedBytes()).isZero();

    h.committed.clear();
    h.start(lake);
    assertThat(h.position).containsEntry(TP0, 0L);
    deliverEverythingAndCheck(h, 11, lake, 100);
  }

  @Test
  void memoryPressureKeepsTheBufferAndTheUnitInFlightWithinTheBudget() throws IOException {
    long budget = 64L << 10;
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    LakeHarness h = harness(3, 2000, new RotationConfig(0, 0, -1, 1000, budget));
    h.start(lake);
    while (h.deliver(40)) {
      assertThat(h.writer.bufferedBytes()).isLessThanOrEqualTo(budget);
      assertThat(h.writer.pausedPartitions()).isEmpty();
    }
    assertThat(h.writer.peakBufferedBytes()).isLessThanOrEqualTo(budget + 1024);
    h.flushBySchedule();
    h.writer.awaitInFlight();
    h.commitOffsets();
    new LakeInspector(lake).assertExactlyOnce(LakeHarness.TABLE, h.tps(), 2000);
  }

  /** Every object of the lake but its identity, which is random for each lake. */
  private static Map<String, String> contents(InMemoryLakeStorage lake) throws IOException {
    Map<String, String> contents = new TreeMap<>();
    String identity = new LakeLayout().identityKey();
    for (String key : lake.list("")) {
      if (!key.equals(identity)) {
        contents.put(key, new String(lake.read(key), java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    return contents;
  }
}
