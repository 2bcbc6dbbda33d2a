package io.skippr.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.sink.buffer.RotationConfig;
import io.skippr.connect.sink.convert.FormatConfig;
import io.skippr.connect.sink.format.ParquetFileWriter;
import io.skippr.connect.sink.log.LakeManifest;
import io.skippr.connect.sink.log.LiveFile;
import io.skippr.connect.sink.maintenance.CompactionConfig;
import io.skippr.connect.sink.maintenance.LakeMaintenance;
import io.skippr.connect.sink.maintenance.RetentionConfig;
import io.skippr.connect.sink.maintenance.WritePolicyConfig;
import io.skippr.connect.sink.storage.LocalLakeStorage;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * merge_by_key: compaction writes each partition path's current state (the last row of a key, a
 * deleted key gone once its marker is past merge.delete.retention.ms); replace_partition: a unit
 * replaces the older files of the paths it writes as it commits.
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
    boolean delete = (offset / 17) % 5 == 4;
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
    harness.writePolicy = policy;
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
      LakeHarness harness, LocalLakeStorage lake, LakeWriter writer, long deleteRetentionMs) {
    return LakeMaintenance.create(
        new LakeMaintenance.Settings(
            new CompactionConfig.Settings(true, 1L << 20, 3, 1000, 0),
            new WritePolicyConfig.Settings(
                WritePolicyConfig.Policy.MERGE_BY_KEY, List.of("id"), deleteRetentionMs),
            RetentionConfig.Settings.NONE,
            null,
            FormatConfig.defaults()),
        lake,
        writer::openLogs,
        () -> harness.clock.now,
        "test");
  }

  @Test
  void mergeByKeyCompactsEachPathToTheLastChangeOfEachKey() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeHarness harness = harness(WritePolicyConfig.Policy.MERGE_BY_KEY);
    LakeWriter writer = harness.start(lake);
    writeAll(harness);
    assertThat(rows(lake)).as("units append every change").hasSize((int) (2 * RECORDS));

    LakeMaintenance maintenance = maintenance(harness, lake, writer, DAY);
    maintenance.pass();
    assertThat(rows(lake))
        .as("the last change of each key, deletes kept as markers within their retention")
        .isEqualTo(expected(true));
    assertThat(liveFiles(lake)).as("one file per path and TP").hasSize(2 * 2);

    harness.clock.now += DAY;
    harness.perPartition = RECORDS + 100;
    writeAll(harness);
    maintenance.pass();
    assertThat(rows(lake))
        .as("markers past their retention are gone, new changes merged in")
        .isEqualTo(expectedUpTo(RECORDS + 100, RECORDS));
  }

  @Test
  void replacePartitionRetiresTheOlderFilesOfThePathsAUnitWrites() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeHarness harness = harness(WritePolicyConfig.Policy.REPLACE_PARTITION);
    harness.start(lake);
    writeAll(harness);
    Map<String, LiveFile> live = liveFiles(lake);
    assertThat(live).as("per TP the newest unit's file of each path").hasSize(2 * 2);
    for (LiveFile file : live.values()) {
      assertThat(file.key()).matches(".*\\+0{17}390\\+0{17}399\\.snappy\\.parquet");
    }
    assertThat(rows(lake)).as("the rows of the last unit of each TP").hasSize(2 * 10);
  }

  /** (partition, bucket, id) → offset and op of the row the lake holds, through the log. */
  private static Map<String, String> rows(LocalLakeStorage lake) throws IOException {
    String files =
        liveFiles(lake).keySet().stream()
            .map(key -> "'" + lake.root().resolve(key) + "'")
            .collect(Collectors.joining(",", "[", "]"));
    Map<String, String> rows = new TreeMap<>();
    try (DuckDbLake duck = new DuckDbLake(lake.root())) {
      for (Map<String, Object> row :
          duck.query(
              "select partition, bucket, id, \"offset\", op from read_parquet(" + files + ")")) {
        String key = row.get("partition") + "/" + row.get("bucket") + "/" + row.get("id");
        String previous = rows.put(key + "@" + row.get("offset"), String.valueOf(row.get("op")));
        assertThat(previous).isNull();
      }
    }
    return rows;
  }

  private static Map<String, LiveFile> liveFiles(LocalLakeStorage lake) throws IOException {
    Map<String, LiveFile> live = new TreeMap<>();
    LakeManifest.liveFiles(lake).values().forEach(fs -> fs.forEach(f -> live.put(f.key(), f)));
    return live;
  }

  private static Map<String, String> expected(boolean withMarkers) {
    return expectedUpTo(RECORDS, withMarkers ? -1 : RECORDS);
  }

  /**
   * The current state after offsets {@code 0..end-1}: per key its last change; a delete is kept
   * when its offset is at least {@code markersFrom} (-1: every delete kept).
   */
  private static Map<String, String> expectedUpTo(long end, long markersFrom) {
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
          if (!op.equals("d") || markersFrom < 0 || offset >= markersFrom) {
            rows.put(key + "@" + offset, op);
          }
        });
    return rows;
  }
}
