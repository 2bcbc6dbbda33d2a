package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TablePolicyLog;
import io.skippr.connect.lake.maintenance.CompactionConfig;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.maintenance.RetentionConfig;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;
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
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * merge_by_key: compaction writes each partition path's current state (the last row of a key, no
 * row of a deleted key); replace_partition: a unit replaces the older files of the paths it writes
 * as it commits, and a reader that globs the table never sees a path's old and new files together.
 */
class WritePolicyTest {
  private static final Schema CHANGE =
      SchemaBuilder.struct()
          .name("Change")
          .field("partition", Schema.INT32_SCHEMA)
          .field("offset", Schema.INT64_SCHEMA)
          .field("bucket", Schema.STRING_SCHEMA)
          .field("size", Schema.INT64_SCHEMA)
          .field("reject", Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .field("id", Schema.INT64_SCHEMA)
          .field("op", Schema.STRING_SCHEMA)
          .build();

  private static final long RECORDS = 400;
  private static final long DAY = 86_400_000L;

  @TempDir Path root;

  /** Key id = offset % 17 within bucket offset % 2; every 5th change of a key deletes it. */
  private static Struct change(int partition, long offset) {
    long id = offset % 17;
    boolean delete = (offset / 17) % 5 == 3;
    return new Struct(CHANGE)
        .put("partition", partition)
        .put("offset", offset)
        .put("bucket", "b" + offset % 2)
        .put("size", 100L)
        .put("id", id)
        .put("op", delete ? "d" : "u");
  }

  private LakeHarness harness(WritePolicyConfig.Policy policy) {
    LakeHarness harness = new LakeHarness(2, RECORDS);
    harness.fileWriter = new ParquetFileWriter(FormatConfig.defaults());
    harness.rotation = new RotationConfig(30, 0, -1, 1000, 32L << 20);
    harness.values = WritePolicyTest::change;
    harness.writePolicy = new WritePolicyConfig.Settings(policy, List.of());
    return harness;
  }

  private static void writeAll(LakeHarness harness) {
    harness.applySeeks();
    while (harness.deliver(45)) {
      harness.commitOffsets();
    }
    harness.flushBySchedule();
    harness.commitOffsets();
  }

  private static LakeMaintenance maintenance(
      LakeHarness harness, LocalLakeStorage lake, LakeWriter writer) {
    return LakeMaintenance.create(
        new LakeMaintenance.Settings(
            new CompactionConfig.Settings(true, 1L << 20, 3, 1000, 0),
            new WritePolicyConfig.Settings(WritePolicyConfig.Policy.MERGE_BY_KEY, List.of("id")),
            RetentionConfig.Settings.NONE,
            null,
            FormatConfig.defaults()),
        lake,
        writer::openLogs,
        () -> harness.clock.now,
        "test");
  }

  @Test
  void eachTablesPolicyIsRecordedInTheLakeOnceAndAgainWhenItChanges() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    TablePolicyLog policies = new TablePolicyLog(lake, new LakeLayout());
    LakeHarness harness = harness(WritePolicyConfig.Policy.MERGE_BY_KEY);
    harness.writePolicy =
        new WritePolicyConfig.Settings(WritePolicyConfig.Policy.MERGE_BY_KEY, List.of("id"));
    harness.start(lake);
    writeAll(harness);
    assertThat(policies.current(LakeHarness.TABLE))
        .contains(
            new TablePolicyLog.Recorded(
                1, new TablePolicyLog.Policy("merge_by_key", List.of("id"))));

    harness.writePolicy = WritePolicyConfig.Settings.APPEND;
    harness.start(lake);
    harness.perPartition = RECORDS + 50;
    writeAll(harness);
    assertThat(policies.current(LakeHarness.TABLE))
        .as("the latest policy applies")
        .contains(new TablePolicyLog.Recorded(2, new TablePolicyLog.Policy("append", List.of())));
    assertThat(lake.list(new LakeLayout().policyPrefix(LakeHarness.TABLE)))
        .as("one document per policy, not per unit")
        .hasSize(2);
  }

  @Test
  void mergeByKeyCompactsEachPathToTheLastChangeOfEachKey() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeHarness harness = harness(WritePolicyConfig.Policy.MERGE_BY_KEY);
    LakeWriter writer = harness.start(lake);
    writeAll(harness);
    assertThat(rows(lake)).as("units append every change").hasSize((int) (2 * RECORDS));

    LakeMaintenance maintenance = maintenance(harness, lake, writer);
    maintenance.pass();
    assertThat(rows(lake))
        .as("the last change of each key, no row of a deleted key")
        .isEqualTo(expectedUpTo(RECORDS));
    assertThat(liveFiles(lake)).as("one file per path and TP").hasSize(2 * 2);
    assertThat(globRows(lake)).as("a glob reads the same").isEqualTo(rows(lake));

    harness.clock.now += DAY;
    harness.perPartition = RECORDS + 100;
    writeAll(harness);
    maintenance.pass();
    assertThat(rows(lake)).as("new changes merged in").isEqualTo(expectedUpTo(RECORDS + 100));
    assertThat(globRows(lake)).isEqualTo(rows(lake));
  }

  @Test
  void replacePartitionRetiresTheOlderFilesOfThePathsAUnitWrites() throws Exception {
    FaultInjectingStorage lake = new FaultInjectingStorage(new LocalLakeStorage(root));
    List<Integer> seen = new ArrayList<>();
    lake.observeBefore(
        EnumSet.of(Op.MOVE, Op.CREATE_IF_ABSENT, Op.COMPLETE),
        () -> seen.add(globRows(root).size()));
    LakeHarness harness = harness(WritePolicyConfig.Policy.REPLACE_PARTITION);
    harness.start(lake);
    writeAll(harness);
    lake.observeBefore(Set.of(), () -> {});
    Map<String, LiveFile> live = liveFiles(lake);
    assertThat(live).as("per TP the newest unit's file of each path").hasSize(2 * 2);
    for (LiveFile file : live.values()) {
      assertThat(file.key()).matches(".*\\+0{17}390\\+0{17}399\\.snappy\\.parquet");
    }
    assertThat(rows(root)).as("the rows of the last unit of each TP").hasSize(2 * 10);
    assertThat(globRows(root)).as("a glob reads the same").isEqualTo(rows(root));
    assertThat(lake.list(LakeHarness.TABLE + "/"))
        .containsExactlyInAnyOrderElementsOf(live.keySet());
    assertThat(lake.list("_skippr/staged/")).isEmpty();
    // Per TP and path a unit of 30 records holds 15 rows: a glob never sees two units of a path.
    assertThat(seen).hasSizeGreaterThan(40).allMatch(rows -> rows <= 2 * 2 * 15);
  }

  static Stream<CrashRecoveryTest.Fault> replacingFaults() {
    List<CrashRecoveryTest.Fault> faults = new ArrayList<>();
    for (When when : When.values()) {
      String w = " (" + when.name().toLowerCase() + ")";
      for (int n : new int[] {1, 4, 9, 14}) {
        faults.add(
            CrashRecoveryTest.Fault.at(
                "move #" + n + w, s -> s.failAt(Op.MOVE, key -> true, n, when)));
      }
      faults.add(
          CrashRecoveryTest.Fault.at(
              "staged file #5" + w, s -> s.failAt(Op.COMPLETE, key -> true, 5, when)));
      faults.add(
          CrashRecoveryTest.Fault.at(
              "replacing commit #2" + w, s -> s.failAtEntry("commit", 2, when)));
    }
    return faults.stream();
  }

  /**
   * A crash at any step of units that replace files (writing them staged, the commit, moving the
   * replaced ones out, moving the new ones in): after the next owners' recovery the table holds per
   * path and TP exactly the newest unit's file, and nothing is left staged.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("replacingFaults")
  void aCrashAtAnyStepOfReplacingUnitsLeavesTheNewestFileOfEachPath(CrashRecoveryTest.Fault fault)
      throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeHarness harness = new LakeHarness(2, 80);
    harness.writePolicy =
        new WritePolicyConfig.Settings(WritePolicyConfig.Policy.REPLACE_PARTITION, List.of());
    List<FaultInjectingStorage> generations = new ArrayList<>();
    int crashes = CrashRecoveryTest.runToTheEnd(harness, fault, lake, generations);
    assertThat(generations.get(0).fired()).as("the fault was injected").isTrue();
    assertThat(crashes).isPositive();
    harness.start(lake); // the last owner's moves are rolled forward by the next one at the latest

    LakeInspector inspector = new LakeInspector(lake);
    Map<String, String> newest = new TreeMap<>();
    for (TopicPartition tp : harness.tps()) {
      for (LogEntry.Commit commit : inspector.commits(tp)) {
        for (LiveFile file : commit.files()) {
          newest.put(tp + " " + file.key().substring(0, file.key().lastIndexOf('/')), file.key());
        }
      }
    }
    assertThat(liveFiles(lake).keySet())
        .as("the newest unit's file of each path and TP")
        .containsExactlyInAnyOrderElementsOf(newest.values());
    assertThat(lake.list(LakeHarness.TABLE + "/"))
        .as("what a glob of the table sees")
        .containsExactlyInAnyOrderElementsOf(newest.values());
    assertThat(lake.list("_skippr/staged/")).isEmpty();
    assertThat(lake.listIncomplete("")).isEmpty();
  }

  /** (partition, bucket, id) → offset and op of the row the lake holds, through the log. */
  private static Map<String, String> rows(Path root) {
    String files =
        new LakeManifest()
            .apply(root).getOrDefault(LakeHarness.TABLE, Map.of()).keySet().stream()
                .map(path -> "'" + path + "'")
                .collect(Collectors.joining(",", "[", "]"));
    return read(root, "read_parquet(" + files + ")");
  }

  private static Map<String, String> rows(LocalLakeStorage lake) {
    return rows(lake.root());
  }

  /** The same, through a glob over the table's directory. */
  private static Map<String, String> globRows(Path root) throws IOException {
    Path table = root.resolve(LakeHarness.TABLE);
    try (Stream<Path> files = Files.exists(table) ? Files.walk(table) : Stream.empty()) {
      if (files.noneMatch(p -> p.toString().endsWith(".parquet"))) {
        return Map.of();
      }
    }
    return read(root, "read_parquet('" + table + "/**/*.parquet')");
  }

  private static Map<String, String> globRows(LocalLakeStorage lake) throws IOException {
    return globRows(lake.root());
  }

  private static Map<String, String> read(Path root, String from) {
    Map<String, String> rows = new TreeMap<>();
    try (DuckDbLake duck = new DuckDbLake(root)) {
      for (Map<String, Object> row :
          duck.query("select partition, bucket, id, \"offset\", op from " + from)) {
        String key = row.get("partition") + "/" + row.get("bucket") + "/" + row.get("id");
        String previous = rows.put(key + "@" + row.get("offset"), String.valueOf(row.get("op")));
        assertThat(previous).as("a row read twice").isNull();
      }
    }
    return rows;
  }

  private static Map<String, LiveFile> liveFiles(LakeStorage lake) throws IOException {
    Map<String, LiveFile> live = new TreeMap<>();
    LakeManifest.liveFiles(lake).values().forEach(fs -> fs.forEach(f -> live.put(f.key(), f)));
    return live;
  }

  /** The current state after offsets {@code 0..end-1}: per key its last change unless a delete. */
  private static Map<String, String> expectedUpTo(long end) {
    Map<String, Long> last = new TreeMap<>();
    for (int p = 0; p < 2; p++) {
      for (long offset = 0; offset < end; offset++) {
        Struct c = change(p, offset);
        last.put(p + "/" + c.getString("bucket") + "/" + c.getInt64("id"), offset);
      }
    }
    Map<String, String> rows = new TreeMap<>();
    last.forEach(
        (key, offset) -> {
          int p = Integer.parseInt(key.substring(0, key.indexOf('/')));
          String op = change(p, offset).getString("op");
          if (!op.equals("d")) {
            rows.put(key + "@" + offset, op);
          }
        });
    assertThat(rows.size()).as("keys deleted last").isLessThan(last.size());
    return rows;
  }
}
