package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.storage.FaultInjectingStorage;
import io.skippr.connect.lake.storage.FaultInjectingStorage.Op;
import io.skippr.connect.lake.storage.FaultInjectingStorage.When;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The commit protocol against storage that fails at each step. After every crash a fresh writer (a
 * new epoch) resumes where it computes, the records are re-delivered from there, and in the end the
 * lake holds every offset exactly once.
 */
class CrashRecoveryTest {
  private static final int PARTITIONS = 2;
  private static final long RECORDS = 80;

  private static final Consumer<FaultInjectingStorage> CRASH_AFTER_INTENT =
      s -> s.failAt(Op.CREATE, x -> true, 4, When.BEFORE);

  @TempDir Path root;

  /**
   * Faults armed in successive writer generations (the last one is the fault under test), or a kill
   * (no fault) after some batch.
   */
  record Fault(String name, List<Consumer<FaultInjectingStorage>> arms, int killAfter) {
    static Fault at(String name, Consumer<FaultInjectingStorage> arm) {
      return new Fault(name, List.of(arm), -1);
    }

    /** A fault in the writer that recovers from an earlier crash. */
    static Fault afterCrash(String name, Consumer<FaultInjectingStorage> arm) {
      return new Fault(name, List.of(CRASH_AFTER_INTENT, arm), -1);
    }

    int generation() {
      return arms.size();
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Fault> faults() {
    List<Fault> faults = new ArrayList<>();
    for (When when : When.values()) {
      String w = " (" + when.name().toLowerCase() + ")";
      for (int n : new int[] {1, 2, 5}) {
        faults.add(Fault.at("intent append #" + n + w, s -> s.failAtEntry("intent", n, when)));
        faults.add(Fault.at("commit append #" + n + w, s -> s.failAtEntry("commit", n, when)));
      }
      for (int n = 1; n <= 4; n++) {
        int k = n;
        faults.add(
            Fault.at("publishing file #" + k + w, s -> s.failAt(Op.COMPLETE, x -> true, k, when)));
      }
      faults.add(Fault.at("checkpoint append" + w, s -> s.failAtEntry("checkpoint", 1, when)));
      faults.add(Fault.at("epoch claim" + w, s -> s.failAtEntry("epoch", 2, when)));
      faults.add(
          Fault.afterCrash("epoch claim after a crash" + w, s -> s.failAtEntry("epoch", 1, when)));
    }
    faults.add(Fault.at("after intent, before any file", CRASH_AFTER_INTENT));
    faults.add(
        Fault.afterCrash(
            "replaying an intent: its first file",
            s -> s.failAt(Op.COMPLETE, x -> true, 1, When.AFTER)));
    faults.add(new Fault("killed before preCommit", List.of(s -> {}), 5));
    return faults.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("faults")
  void everyOffsetLandsExactlyOnceDespiteACrash(Fault fault) throws Exception {
    assertEveryOffsetOnceDespite(fault, new LocalLakeStorage(root));
  }

  /** Runs writer generations over {@code lake} through {@code fault}; checks every offset once. */
  static void assertEveryOffsetOnceDespite(Fault fault, LakeStorage lake) throws IOException {
    LakeHarness harness = new LakeHarness(PARTITIONS, RECORDS);
    List<FaultInjectingStorage> generations = new ArrayList<>();
    int crashes = runToTheEnd(harness, fault, lake, generations);

    boolean killed = fault.killAfter() > 0;
    assertThat(killed || generations.get(fault.generation() - 1).fired())
        .as("the fault was injected")
        .isTrue();
    assertThat(crashes).isGreaterThanOrEqualTo(fault.generation());
    new LakeInspector(lake).assertExactlyOnce(LakeHarness.TABLE, harness.tps(), RECORDS);
    for (TopicPartition tp : harness.tps()) {
      assertThat(harness.committed.get(tp)).as("Kafka offset of " + tp).isEqualTo(RECORDS);
    }
  }

  @Test
  void realParquetFilesReadBackByDuckDbHoldEveryRecordOnce() throws Exception {
    LakeHarness harness = new LakeHarness(PARTITIONS, RECORDS);
    harness.fileWriter = new ParquetFileWriter(FormatConfig.defaults());
    LocalLakeStorage lake = new LocalLakeStorage(root);
    Fault fault =
        Fault.at("publishing file #2", s -> s.failAt(Op.COMPLETE, x -> true, 2, When.AFTER));
    List<FaultInjectingStorage> generations = new ArrayList<>();
    int crashes = runToTheEnd(harness, fault, lake, generations);
    assertThat(crashes).isEqualTo(1);

    new LakeInspector(lake).assertExactlyOnce(LakeHarness.TABLE, harness.tps(), RECORDS, false);
    try (DuckDbLake duck = new DuckDbLake(root)) {
      String table = "${table:" + LakeHarness.TABLE + "}";
      assertThat(duck.count("select count(*) from " + table)).isEqualTo(PARTITIONS * RECORDS);
      assertThat(duck.count("select count(distinct (partition, \"offset\")) from " + table))
          .isEqualTo(PARTITIONS * RECORDS);
      assertThat(duck.count("select max(\"offset\") from " + table)).isEqualTo(RECORDS - 1);
      assertThat(
              duck.count(
                  "select count(*) from "
                      + table
                      + " where p <> bucket or bucket <> 'b' || (\"offset\" % 3)"))
          .isZero();
    }
  }

  /** Delivers everything, restarting a writer generation after each crash; returns the crashes. */
  static int runToTheEnd(
      LakeHarness harness, Fault fault, LakeStorage lake, List<FaultInjectingStorage> generations) {
    int crashes = 0;
    int batches = 0;
    boolean running = false;
    while (true) {
      try {
        if (!running) {
          FaultInjectingStorage storage = new FaultInjectingStorage(lake);
          generations.add(storage);
          if (generations.size() <= fault.arms().size()) {
            fault.arms().get(generations.size() - 1).accept(storage);
          }
          harness.start(storage);
          running = true;
        }
        boolean more = harness.deliver(7);
        batches++;
        if (batches % 3 == 0) {
          harness.commitOffsets();
        }
        if (batches == fault.killAfter()) {
          throw new ConnectException("killed");
        }
        if (!more) {
          harness.flushBySchedule();
          harness.commitOffsets();
          if (harness.tps().stream().allMatch(tp -> harness.committed.get(tp) == RECORDS)) {
            return crashes;
          }
        }
      } catch (ConnectException e) {
        crashes++;
        running = false;
        assertThat(crashes).as("crashes, last: " + e).isLessThan(5);
      }
    }
  }
}
