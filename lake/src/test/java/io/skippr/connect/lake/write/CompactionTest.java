package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.maintenance.CompactionConfig;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.storage.FaultInjectingStorage;
import io.skippr.connect.lake.storage.FaultInjectingStorage.Op;
import io.skippr.connect.lake.storage.FaultInjectingStorage.When;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Merging small files through the TP log: readers of the log see every row once before, during and
 * after a merge, and a reader that globs the table never sees a row twice (the inputs leave the
 * table before the merged file enters it); the inputs wait out the grace period under {@code
 * _skippr/retired/}, then go; and a crash at any step of a merge, of its moves or of the deletion
 * ends, after the next owner's recovery and passes, in the same lake as without the crash.
 */
class CompactionTest {
  private static final int PARTITIONS = 2;
  private static final long RECORDS = 300;
  private static final long GRACE_MS = 60_000;
  private static final CompactionConfig.Settings SETTINGS =
      new CompactionConfig.Settings(true, 1L << 20, 5, 1_000, GRACE_MS);

  @TempDir Path root;

  private LakeHarness harness;

  /** Writes every record in units of 25 (12 units of 3 partition paths per TP). */
  private LakeWriter write(LakeStorage storage) {
    harness = new LakeHarness(PARTITIONS, RECORDS);
    harness.fileWriter = new ParquetFileWriter(FormatConfig.defaults());
    return harness.writeAll(storage, 40);
  }

  private LakeMaintenance maintenance(LakeStorage storage, LakeWriter writer) {
    return harness.maintenance(storage, writer, SETTINGS);
  }

  @Test
  void mergesSmallFilesPerPathAndTpAndDeletesTheInputsAfterTheGrace() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeWriter writer = write(lake);
    assertThat(liveFiles(lake)).hasSize(PARTITIONS * 12 * 3);
    assertEveryRowOnceThroughTheLog(lake);
    assertEveryRowOnceThroughAGlob(lake);

    LakeMaintenance maintenance = maintenance(lake, writer);
    maintenance.pass();
    Map<String, LiveFile> live = liveFiles(lake);
    assertThat(live).as("one file per partition path and TP").hasSize(PARTITIONS * 3);
    assertThat(live.keySet())
        .allMatch(key -> key.matches(".*\\+0{20}\\+0{17}299\\+m[0-9a-f]{12}\\.snappy\\.parquet"));
    assertThat(maintenance.filesMerged()).isEqualTo(PARTITIONS * 12 * 3);
    assertEveryRowOnceThroughTheLog(lake);
    assertThat(tableFiles(lake))
        .as("the inputs left the table with the merge")
        .containsExactlyInAnyOrderElementsOf(live.keySet());
    assertThat(aside(lake, "retired"))
        .as("the inputs wait out the grace out of every glob's reach")
        .hasSize(PARTITIONS * 12 * 3)
        .allMatch(key -> key.endsWith(".parquet.retired"));
    assertThat(aside(lake, "staged")).isEmpty();
    assertEveryRowOnceThroughAGlob(lake);

    maintenance.pass();
    assertThat(maintenance.merges()).as("nothing more to merge").isEqualTo(PARTITIONS * 3);
    harness.clock.now += GRACE_MS;
    maintenance.pass();
    assertThat(tableFiles(lake)).containsExactlyInAnyOrderElementsOf(live.keySet());
    assertThat(aside(lake, "retired")).isEmpty();
    assertThat(maintenance.filesDeleted()).isEqualTo(PARTITIONS * 12 * 3);
    assertEveryRowOnceThroughTheLog(lake);

    // A new owner opens the TPs from the log: the same live files, nothing swept or merged again.
    LakeWriter next = harness.start(lake);
    maintenance(lake, next).pass();
    assertThat(liveFiles(lake)).isEqualTo(live);
  }

  @Test
  void aGlobOfTheTableNeverSeesARowTwiceAtAnyStepOfAMerge() throws Exception {
    FaultInjectingStorage lake = new FaultInjectingStorage(new LocalLakeStorage(root));
    LakeWriter writer = write(lake);
    List<Long> seen = new ArrayList<>();
    lake.observeBefore(
        EnumSet.of(Op.MOVE, Op.COMPLETE, Op.CREATE_IF_ABSENT),
        () -> seen.add(globRowsSeenOnce(root)));
    LakeMaintenance maintenance = maintenance(lake, writer);
    maintenance.pass();
    harness.clock.now += GRACE_MS;
    maintenance.pass();
    lake.observeBefore(Set.of(), () -> {});
    assertThat(lake.count(Op.MOVE)).as("inputs moved out, outputs moved in").isEqualTo(78);
    assertThat(seen).as("rows a glob sees before each step").hasSizeGreaterThan(90);
    assertThat(seen).allMatch(rows -> rows <= PARTITIONS * RECORDS);
    assertThat(seen)
        .as("some rows out of sight while a merge moves its files")
        .anyMatch(rows -> rows < PARTITIONS * RECORDS);
    assertThat(seen.get(0)).isEqualTo(PARTITIONS * RECORDS);
    assertEveryRowOnceThroughAGlob(lake);
  }

  @Test
  void aLakeMergedByThePreviousVersionMovesItsRetiredInputsOutWhenOpened() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeWriter writer = write(lake);
    maintenance(lake, writer).pass();
    // The previous version left a merge's inputs in their table for the grace.
    for (String retired : aside(lake, "retired")) {
      lake.move(
          retired,
          retired.substring("_skippr/retired/".length(), retired.length() - ".retired".length()));
    }
    assertThat(tableFiles(lake)).hasSize(PARTITIONS * 3 + PARTITIONS * 12 * 3);

    LakeWriter next = harness.start(lake);
    assertThat(tableFiles(lake))
        .containsExactlyInAnyOrderElementsOf(liveFiles(lake).keySet())
        .hasSize(PARTITIONS * 3);
    assertEveryRowOnceThroughAGlob(lake);
    LakeMaintenance maintenance = maintenance(lake, next);
    harness.clock.now += GRACE_MS;
    maintenance.pass();
    assertThat(aside(lake, "retired")).isEmpty();
    assertThat(maintenance.filesDeleted()).isEqualTo(PARTITIONS * 12 * 3);
  }

  @Test
  void aMergedFileStillSmallIsMergedAgainWithTheUnitsAfterIt() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeWriter writer = write(lake);
    LakeMaintenance maintenance = maintenance(lake, writer);
    maintenance.pass();
    harness.perPartition = 500;
    while (harness.deliver(40)) {
      harness.commitOffsets();
    }
    maintenance.pass();
    Map<String, LiveFile> live = liveFiles(lake);
    assertThat(live).hasSize(PARTITIONS * 3);
    assertThat(live.keySet())
        .allMatch(key -> key.matches(".*\\+0{20}\\+0{17}499\\+m[0-9a-f]{12}\\.snappy\\.parquet"));
    assertThat(live.values().stream().mapToLong(LiveFile::rows).sum()).isEqualTo(PARTITIONS * 500);
    try (DuckDbLake duck = new DuckDbLake(root)) {
      assertThat(
              duck.count(
                  "select count(distinct (partition, \"offset\")) from read_parquet("
                      + files(lake)
                      + ")"))
          .isEqualTo(PARTITIONS * 500);
    }
  }

  /** A fault while merging or deleting, then the next owner's recovery and passes. */
  record Fault(String name, boolean afterAMerge, Consumer<FaultInjectingStorage> arm) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Fault> faults() {
    List<Fault> faults = new ArrayList<>();
    for (When when : When.values()) {
      String w = " (" + when.name().toLowerCase() + ")";
      for (int n : new int[] {1, 3}) {
        faults.add(
            new Fault(
                "merge intent #" + n + w, false, s -> s.failAtEntry("compact-intent", n, when)));
        faults.add(
            new Fault(
                "merge commit #" + n + w, false, s -> s.failAtEntry("compact-commit", n, when)));
        faults.add(
            new Fault(
                "publishing merged file #" + n + w,
                false,
                s -> s.failAt(Op.COMPLETE, key -> key.contains("+m"), n, when)));
      }
      for (int n : new int[] {1, 7}) {
        faults.add(
            new Fault(
                "moving input #" + n + " out of the table" + w,
                false,
                s -> s.failAt(Op.MOVE, key -> key.startsWith(LakeHarness.TABLE + "/"), n, when)));
      }
      faults.add(
          new Fault(
              "moving merged file #2 into the table" + w,
              false,
              s -> s.failAt(Op.MOVE, key -> key.startsWith("_skippr/staged/"), 2, when)));
      faults.add(
          new Fault(
              "reading an input" + w,
              false,
              s -> s.failAt(Op.READ, key -> key.endsWith(".parquet"), 4, when)));
      faults.add(
          new Fault(
              "deleting a retired file" + w, true, s -> s.failAt(Op.DELETE, key -> true, 5, when)));
      faults.add(new Fault("purge append" + w, true, s -> s.failAtEntry("purge", 1, when)));
    }
    return faults.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("faults")
  void aCrashAtAnyStepEndsInTheSameLake(Fault fault) throws Exception {
    Map<String, String> expected = reference();
    LocalLakeStorage lake = new LocalLakeStorage(root.resolve("faulty"));
    FaultInjectingStorage faulty = new FaultInjectingStorage(lake);
    LakeMaintenance first = armed(fault, faulty);
    Throwable crash = catchThrowable(first::pass);
    assertThat(faulty.fired()).as("the fault was injected").isTrue();
    assertThat(crash).as("a pass reports failures in the log, not to its caller").isNull();
    assertEveryRowOnceThroughTheLog(lake);
    assertThat(globRowsSeenOnce(lake.root())).isLessThanOrEqualTo(PARTITIONS * RECORDS);

    LakeWriter next = harness.start(new FaultInjectingStorage(lake)); // a new owner: recovery
    assertEveryRowOnceThroughTheLog(lake);
    assertEveryRowOnceThroughAGlob(lake);
    LakeMaintenance second = maintenance(lake, next);
    second.pass();
    harness.clock.now += GRACE_MS;
    second.pass();
    assertEveryRowOnceThroughTheLog(lake);
    assertTheSameLakeAs(expected, lake);
  }

  /** The faults after which the same owner goes on: none of them fails an append to the log. */
  static Stream<Fault> faultsOfFiles() {
    return faults()
        .filter(
            f ->
                f.name().startsWith("moving")
                    || f.name().startsWith("reading")
                    || f.name().startsWith("publishing")
                    || f.name().startsWith("deleting"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("faultsOfFiles")
  void aPassAfterAFailedOneFinishesItsMoves(Fault fault) throws Exception {
    Map<String, String> expected = reference();
    LocalLakeStorage lake = new LocalLakeStorage(root.resolve("faulty"));
    FaultInjectingStorage faulty = new FaultInjectingStorage(lake);
    LakeMaintenance maintenance = armed(fault, faulty);
    maintenance.pass();
    assertThat(faulty.fired()).isTrue();
    maintenance.pass(); // the same owner goes on
    harness.clock.now += GRACE_MS;
    maintenance.pass();
    assertTheSameLakeAs(expected, lake);
  }

  /** Writes the lake and its maintenance with the fault armed (after a first merge if it says). */
  private LakeMaintenance armed(Fault fault, FaultInjectingStorage faulty) {
    LakeWriter writer = write(faulty);
    LakeMaintenance maintenance = maintenance(faulty, writer);
    if (fault.afterAMerge()) {
      maintenance.pass();
      harness.clock.now += GRACE_MS;
    }
    fault.arm().accept(faulty);
    return maintenance;
  }

  /** The same live files as the reference, exactly those in the table, nothing staged or left. */
  private void assertTheSameLakeAs(Map<String, String> expected, LocalLakeStorage lake)
      throws IOException {
    assertEveryRowOnceThroughAGlob(lake);
    assertThat(shas(lake)).isEqualTo(expected);
    assertThat(tableFiles(lake)).containsExactlyInAnyOrderElementsOf(expected.keySet());
    assertThat(aside(lake, "staged")).isEmpty();
    assertThat(aside(lake, "retired")).isEmpty();
  }

  /** The live files (key → sha256) of the same lake compacted without a fault. */
  private Map<String, String> reference() throws IOException {
    LocalLakeStorage lake = new LocalLakeStorage(root.resolve("reference"));
    LakeWriter writer = write(lake);
    LakeMaintenance maintenance = maintenance(lake, writer);
    maintenance.pass();
    harness.clock.now += GRACE_MS;
    maintenance.pass();
    return shas(lake);
  }

  private static Map<String, LiveFile> liveFiles(LakeStorage lake) throws IOException {
    Map<String, LiveFile> live = new TreeMap<>();
    LakeManifest.liveFiles(lake)
        .values()
        .forEach(files -> files.forEach(f -> live.put(f.key(), f)));
    return live;
  }

  private static Map<String, String> shas(LakeStorage lake) throws IOException {
    return liveFiles(lake).values().stream()
        .collect(Collectors.toMap(LiveFile::key, LiveFile::sha256, (a, b) -> a, TreeMap::new));
  }

  private static List<String> tableFiles(LakeStorage lake) throws IOException {
    return lake.list(new LakeLayout().tablePrefix(LakeHarness.TABLE));
  }

  /** Keys under {@code _skippr/{area}/} (staged or retired files). */
  private static List<String> aside(LakeStorage lake, String area) throws IOException {
    return lake.list("_skippr/" + area + "/");
  }

  /** The live files where they are now, as readers of the log get them. */
  private static String files(LocalLakeStorage lake) {
    return new LakeManifest()
        .apply(lake.root()).getOrDefault(LakeHarness.TABLE, Map.of()).keySet().stream()
            .map(path -> "'" + path + "'")
            .collect(Collectors.joining(",", "[", "]"));
  }

  /**
   * The rows a DuckDB glob over the table reads; fails when it reads a (partition, offset) twice.
   */
  private static long globRowsSeenOnce(Path root) throws IOException {
    Path table = root.resolve(LakeHarness.TABLE);
    boolean any;
    try (Stream<Path> files = Files.exists(table) ? Files.walk(table) : Stream.empty()) {
      any = files.anyMatch(p -> p.toString().endsWith(".parquet"));
    }
    if (!any) {
      return 0;
    }
    try (DuckDbLake duck = new DuckDbLake(root)) {
      Map<String, Object> counts =
          duck.query(
                  "select count(*)::bigint as rows, count(distinct (partition, \"offset\"))::bigint"
                      + " as distinct_rows from read_parquet('"
                      + table
                      + "/**/*.parquet')")
              .get(0);
      assertThat(counts.get("rows"))
          .as("rows a glob reads once each")
          .isEqualTo(counts.get("distinct_rows"));
      return (Long) counts.get("rows");
    }
  }

  private void assertEveryRowOnceThroughAGlob(LocalLakeStorage lake) throws IOException {
    assertThat(globRowsSeenOnce(lake.root())).isEqualTo(PARTITIONS * RECORDS);
  }

  private void assertEveryRowOnceThroughAGlob(FaultInjectingStorage lake) throws IOException {
    assertThat(globRowsSeenOnce(root)).isEqualTo(PARTITIONS * RECORDS);
  }

  /** DuckDB over the files the log lists: every (partition, offset) once, nothing else. */
  private void assertEveryRowOnceThroughTheLog(LocalLakeStorage lake) throws IOException {
    try (DuckDbLake duck = new DuckDbLake(lake.root())) {
      List<Map<String, Object>> counts =
          duck.query(
              "select count(*)::bigint as rows, count(distinct (partition, \"offset\"))::bigint as"
                  + " distinct_rows from read_parquet("
                  + files(lake)
                  + ")");
      assertThat(counts)
          .containsExactly(
              Map.of("rows", PARTITIONS * RECORDS, "distinct_rows", PARTITIONS * RECORDS));
    }
  }
}
