package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr compact} and {@code skippr sync} with {@code iceberg.enabled=true}, the Iceberg
 * archive's jars on their class path as {@code SKIPPR_CLASSPATH} puts them: an offline merge of a
 * stopped connector's lake is one replace snapshot of the connector's table, and a pipeline run
 * without Kafka registers every unit it commits. Iceberg's reader sees each record once and the
 * table's files are the lake log's live files.
 */
class IcebergCliIT {
  private static final int PARTITIONS = 2;
  private static final long PER_PARTITION = 1_500;
  private static final Duration LANDING = Duration.ofMinutes(3);
  private static final String LOCAL_IO = "io.skippr.connect.iceberg.io.LocalFileIO";

  @TempDir static Path root;
  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster =
        ConnectCluster.start(
            "iceberg-cli",
            1,
            Map.of("plugin.path", System.getProperty("skippr.iceberg.plugin.dir")));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The Iceberg archive's jars and the SQLite driver, as a user adds them to the CLI. */
  private static List<Path> icebergClasspath() throws Exception {
    Path archive;
    try (var dirs =
        java.nio.file.Files.list(Path.of(System.getProperty("skippr.iceberg.plugin.dir")))) {
      archive =
          dirs.filter(d -> d.getFileName().toString().startsWith("skippr-connect-iceberg-"))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("the Iceberg archive is not built"));
    }
    Path sqlite =
        Path.of(org.sqlite.JDBC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return List.of(archive.resolve("lib/*"), sqlite);
  }

  @Test
  void eachOfflineMergeOfAStoppedConnectorsLakeIsOneReplaceSnapshot() throws Exception {
    String topic = "ice-compact";
    Path lake = root.resolve("compact-lake");
    IcebergTables tables = new IcebergTables(root.resolve("compact"), Map.of());
    Map<String, String> config = new HashMap<>(ChaosIT.sinkConfig(lake, topic));
    config.put("tasks.max", "1");
    config.put("flush.size", "300");
    config.put("rotate.schedule.interval.ms", "1000");
    config.put("compaction.grace.ms", "0");
    config.putAll(
        tables.connectorKeys(
            "file:" + root.resolve("compact/warehouse"), Map.of("io-impl", LOCAL_IO)));
    ChaosStack.produceOrders(cluster, topic, PARTITIONS, PER_PARTITION);
    cluster.connect().configureConnector(topic, config);
    long total = PARTITIONS * PER_PARTITION;
    Await.until(
        LANDING,
        () -> "every record in Iceberg, now " + tables.describe(topic),
        () -> tables.rows(topic) >= total);
    int unitFiles = IcebergTables.liveKeys(lake, topic).size();
    assertThat(unitFiles).as("five units a partition").isGreaterThanOrEqualTo(10);
    cluster.connect().stopConnector(topic);
    Await.until(
        Duration.ofSeconds(60),
        () -> "stopped: " + cluster.statusOrError(topic),
        () -> cluster.statusOrError(topic).contains("STOPPED"));

    CliProcess compact =
        CliProcess.start(
            "compact",
            root.resolve("logs"),
            List.of(
                "compact",
                "--connector",
                topic,
                "--connect-url",
                cluster.connect().endpointForResource("").replaceAll("/+$", ""),
                "--output",
                "json"),
            root,
            Map.of(),
            icebergClasspath());
    assertThat(compact.awaitExit(Duration.ofMinutes(2))).as(compact.output()).isZero();

    TreeSet<String> live = IcebergTables.liveKeys(lake, topic);
    assertThat(live).as("one merged file a partition").hasSize(PARTITIONS);
    Table table = tables.table(topic);
    assertThat(IcebergTables.tableKeys(table, lake)).isEqualTo(live);
    // One merge a partition, each one replace snapshot; together they retire every unit's file.
    List<Snapshot> merges =
        IcebergTables.snapshots(table).stream()
            .filter(s -> "replace".equals(s.operation()))
            .toList();
    assertThat(merges).hasSize(PARTITIONS);
    assertThat(IcebergTables.snapshots(table).get(IcebergTables.snapshots(table).size() - 1))
        .isEqualTo(table.currentSnapshot())
        .matches(s -> "replace".equals(s.operation()), "the last snapshot is a merge");
    long retired = 0;
    for (Snapshot merge : merges) {
      assertThat(merge.summary()).containsEntry("added-data-files", "1");
      retired += Long.parseLong(merge.summary().get("deleted-data-files"));
    }
    assertThat(retired).isEqualTo(unitFiles);
    List<String> seen = IcebergTables.positions(table);
    assertThat(seen).hasSize((int) total);
    assertThat(new TreeSet<>(seen)).isEqualTo(IcebergTables.expected(PARTITIONS, PER_PARTITION));
  }

  @Test
  void aPipelineRunWithoutKafkaRegistersEveryUnitItCommits() throws Exception {
    Path dir = root.resolve("sync");
    Path inbox = dir.resolve("inbox");
    Path lake = dir.resolve("lake");
    IcebergTables tables = new IcebergTables(dir.resolve("iceberg"), Map.of());
    Map<String, Object> lakeKeys =
        new LinkedHashMap<>(
            tables.connectorKeys(
                "file:" + dir.resolve("iceberg/warehouse"), Map.of("io-impl", LOCAL_IO)));
    lakeKeys.put("compaction.enabled", "false");
    SyncFiles.write(inbox, "a.ndjson", 0, 1_200);
    SyncFiles.write(inbox, "b.ndjson", 1_200, 2_000);
    SyncCli without = new SyncCli(dir, Map.of());
    without.pipeline("orders", SyncFiles.pipeline(inbox, lake.toString(), lakeKeys));
    SyncCli.Result refused = without.once("orders");
    assertThat(refused.exit()).as(refused.output()).isNotZero();
    assertThat(refused.output()).contains("iceberg.enabled", "SKIPPR_CLASSPATH");
    assertThat(lake.resolve("orders")).as("nothing landed").doesNotExist();

    SyncCli cli = new SyncCli(dir, Map.of(), icebergClasspath());
    cli.pipeline("orders", SyncFiles.pipeline(inbox, lake.toString(), lakeKeys));

    SyncCli.Result first = cli.once("orders");
    assertThat(first.exit()).as(first.output()).isZero();
    assertIdsOnceInTable(tables, lake, 2_000);

    SyncFiles.write(inbox, "c.ndjson", 2_000, 2_300);
    SyncCli.Result second = cli.once("orders");
    assertThat(second.exit()).as(second.output()).isZero();
    assertIdsOnceInTable(tables, lake, 2_300);
  }

  /**
   * Ids 0 to n - 1 each once through Iceberg's reader, and the table's files exactly the lake's
   * live files ({@code sync --once} ends after its last registration).
   */
  private static void assertIdsOnceInTable(IcebergTables tables, Path lake, long n)
      throws IOException {
    Table table = tables.table("orders");
    assertThat(table).as("the table of the lake table orders").isNotNull();
    List<Long> ids = new ArrayList<>();
    MappedReader.read(table, row -> ids.add(((Number) row.getField("id")).longValue()));
    assertThat(ids).hasSize((int) n).doesNotHaveDuplicates();
    assertThat(ids).allMatch(id -> id >= 0 && id < n);
    assertThat(IcebergTables.tableKeys(table, lake))
        .isEqualTo(IcebergTables.liveKeys(lake, "orders"));
  }
}
