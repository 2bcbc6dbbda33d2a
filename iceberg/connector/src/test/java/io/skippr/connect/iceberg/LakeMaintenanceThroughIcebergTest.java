package io.skippr.connect.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.lake.write.LakeWriter;
import io.skippr.connect.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake's own maintenance (the task's {@link LakeMaintenance}) tells the writer's Iceberg
 * registrar of each merge and expiry: a merge becomes one replace snapshot of its inputs by its
 * output, an expiry one delete, and the table's files stay the lake log's live files.
 */
class LakeMaintenanceThroughIcebergTest {
  private static final TopicPartition TP0 = new TopicPartition(IcebergLake.TOPIC, 0);

  @TempDir Path root;

  /**
   * Writes three units of ten rows, waits until Iceberg holds them when {@code registeredFirst},
   * runs one maintenance pass, and stops the writer.
   */
  private void landAndMaintain(
      IcebergLake lake, Map<String, String> overrides, boolean registeredFirst) {
    LakeWriter writer = lake.writer(overrides);
    writer.open(List.of(TP0));
    writer.put(IcebergLake.records(0, 0, 30));
    writer.flushAll();
    if (registeredFirst) {
      Await.until(Duration.ofSeconds(30), "30 rows in Iceberg", () -> registeredRows(lake) == 30);
    }
    Map<String, String> props = new HashMap<>(lake.props);
    props.putAll(overrides);
    LakeMaintenance maintenance =
        LakeMaintenance.create(
                new LakeSinkConfig(props).maintenance(),
                new LocalLakeStorage(root.resolve("lake")),
                writer::openLogs,
                System::currentTimeMillis,
                "test")
            .telling(writer.listener());
    maintenance.pass();
    assertThat(maintenance.failures()).isZero();
    writer.stop(); // delivers what the registrar has queued
  }

  private static long registeredRows(IcebergLake lake) {
    try {
      return MappedReader.positions(lake.table("orders")).size();
    } catch (NoSuchTableException e) {
      return -1;
    }
  }

  private List<String> liveFiles() throws Exception {
    List<String> live = new ArrayList<>();
    List<LiveFile> files =
        LakeManifest.liveFiles(new LocalLakeStorage(root.resolve("lake")))
            .getOrDefault("orders", List.of());
    files.forEach(f -> live.add(root.resolve("lake").resolve(f.key()).toString()));
    return live;
  }

  private static List<String> operations(Table table) {
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    snapshots.sort((a, b) -> Long.compare(a.sequenceNumber(), b.sequenceNumber()));
    List<String> operations = new ArrayList<>();
    snapshots.forEach(s -> operations.add(s.operation()));
    return operations;
  }

  @Test
  void aMergeOfTheLakeIsOneReplaceOfItsInputsByItsOutput() throws Exception {
    IcebergLake lake = new IcebergLake(root);
    landAndMaintain(lake, Map.of("compaction.min.files", "2"), true);

    List<String> live = liveFiles();
    assertThat(live).as("the three units merged into one file").hasSize(1);
    Table table = lake.table("orders");
    assertThat(IcebergLake.currentFiles(table)).containsExactlyElementsOf(live);
    assertThat(IcebergLake.positions(table))
        .hasSize(30)
        .containsExactlyInAnyOrderElementsOf(IcebergLake.expected(1, 30));
    assertThat(IcebergLake.duckPositions(IcebergLake.currentFiles(table))).hasSize(30);
    List<String> operations = operations(table);
    assertThat(operations).endsWith("replace");
    assertThat(operations.stream().filter("replace"::equals)).hasSize(1);

    // The next owner reconciles against the log: nothing is left to change.
    int snapshots = operations.size();
    LakeWriter next = lake.writer(Map.of());
    next.open(List.of(TP0));
    next.stop();
    Table after = lake.table("orders");
    assertThat(operations(after)).hasSize(snapshots);
    assertThat(new TreeSet<>(IcebergLake.currentFiles(after))).isEqualTo(new TreeSet<>(live));
  }

  /** Copy on write: the table's current snapshot has data files only. */
  private static void assertNoDeleteFiles(Table table) {
    assertThat(table.currentSnapshot().summary()).containsEntry("total-delete-files", "0");
    table.snapshots().forEach(s -> assertThat(s.deleteManifests(table.io())).isEmpty());
  }

  @Test
  void mergeByKeyThroughTheLakesMaintenanceLeavesTheCurrentRowsAsDataFiles() throws Exception {
    IcebergLake lake = new IcebergLake(root);
    // Thirty orders over three regions: the current state is the last order of each region.
    landAndMaintain(
        lake,
        Map.of(
            "compaction.min.files", "2",
            "write.policy", "merge_by_key",
            "merge.key.fields", "region"),
        true);

    List<String> live = liveFiles();
    assertThat(live).as("the three units merged into one file").hasSize(1);
    Table table = lake.table("orders");
    assertThat(IcebergLake.currentFiles(table)).containsExactlyElementsOf(live);
    assertThat(IcebergLake.positions(table)).containsExactlyInAnyOrder("0/27", "0/28", "0/29");
    assertThat(IcebergLake.duckPositions(IcebergLake.currentFiles(table)))
        .containsExactlyInAnyOrder("0/27", "0/28", "0/29");
    assertThat(operations(table)).endsWith("overwrite");
    assertNoDeleteFiles(table);
  }

  @Test
  void replacePartitionIsOneOverwriteOfThePathsOlderFiles() throws Exception {
    IcebergLake lake = new IcebergLake(root);
    lake.props.put("partitioner.class", "field");
    lake.props.put("partition.field.name", "region");
    lake.props.put("write.policy", "replace_partition");
    LakeWriter writer = lake.writer(Map.of("compaction.enabled", "false"));
    writer.open(List.of(TP0));
    // Three units of ten orders, each over the three region paths: the last replaces the others.
    for (long from = 0; from < 30; from += 10) {
      writer.put(IcebergLake.records(0, from, from + 10));
      writer.flushAll();
    }
    writer.stop();

    List<String> live = liveFiles();
    assertThat(live).as("one file per region path, of the last unit").hasSize(3);
    Table table = lake.table("orders");
    assertThat(new TreeSet<>(IcebergLake.currentFiles(table))).isEqualTo(new TreeSet<>(live));
    List<String> last = new ArrayList<>();
    for (long o = 20; o < 30; o++) {
      last.add("0/" + o);
    }
    assertThat(IcebergLake.positions(table)).containsExactlyInAnyOrderElementsOf(last);
    assertThat(operations(table)).contains("overwrite");
    assertNoDeleteFiles(table);
  }

  /** Daily paths of 2023 with a day's retention: every path is past it at once. */
  private IcebergLake dailyWithRetention() {
    IcebergLake lake = new IcebergLake(root);
    lake.props.put("partitioner.class", "time");
    lake.props.put("timestamp.extractor", "RecordField");
    lake.props.put("timestamp.field", "at");
    lake.props.put("partition.duration.ms", "86400000");
    lake.props.put("path.format", "'dt'=YYYY-MM-dd");
    lake.props.put("timezone", "UTC");
    lake.props.put("retention.ms", "86400000");
    return lake;
  }

  @Test
  void retentionOfTheLakeIsOneDeleteOfTheExpiredFiles() throws Exception {
    IcebergLake lake = dailyWithRetention();
    landAndMaintain(lake, Map.of("compaction.enabled", "false"), true);

    assertThat(liveFiles()).isEmpty();
    Table table = lake.table("orders");
    assertThat(IcebergLake.currentFiles(table)).isEmpty();
    assertThat(IcebergLake.positions(table)).isEmpty();
    List<String> operations = operations(table);
    assertThat(operations).endsWith("delete");
    assertThat(operations.stream().filter("delete"::equals)).hasSize(1);
  }

  @Test
  void filesExpiredBeforeTheyWereRegisteredAreNeverRegistered() throws Exception {
    IcebergLake lake = dailyWithRetention();
    // Registration waits a minute; the writer's stop delivers it, after retention deleted the
    // files.
    landAndMaintain(
        lake, Map.of("compaction.enabled", "false", "iceberg.commit.interval.ms", "60000"), false);

    assertThat(liveFiles()).isEmpty();
    try {
      Table table = lake.table("orders");
      assertThat(IcebergLake.currentFiles(table)).isEmpty();
    } catch (NoSuchTableException e) {
      // nothing was left to register, so no table was created: no reader meets a missing file
    }
  }
}
