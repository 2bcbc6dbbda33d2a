package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.S3MockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake sink of the skippr-connect-iceberg plugin in a Connect worker registers its units in
 * Iceberg tables of a JDBC catalog (SQLite, WAL): on local disk and on S3 (S3Mock), Iceberg's
 * reader and DuckDB over the table's current file list each see every record exactly once, and the
 * table's files are exactly the files the lake log committed. A restart in between changes nothing
 * of that.
 */
@ExtendWith(S3MockServer.Shared.class)
class IcebergLakeIT {
  private static final int PARTITIONS = 3;
  private static final long PER_PARTITION = 4_000;
  private static final String BUCKET = "iceberg-lake";
  private static final Duration LANDING = Duration.ofMinutes(3);

  @TempDir static Path root;
  private static ConnectCluster cluster;
  private static S3MockServer s3;

  @BeforeAll
  static void start(S3MockServer server) {
    s3 = server;
    s3.createBucket(BUCKET);
    cluster =
        ConnectCluster.start(
            "iceberg-lake",
            1,
            Map.of("plugin.path", System.getProperty("skippr.iceberg.plugin.dir")));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Map<String, String> sink(String topic, Map<String, String> more) {
    Map<String, String> config = new HashMap<>(ChaosIT.sinkConfig(root.resolve("x"), topic));
    config.put("tasks.max", "2");
    config.put("flush.size", "700");
    config.put("rotate.schedule.interval.ms", "1000");
    config.put("store.rocksdb.path", root.resolve("state-" + topic).toString());
    config.putAll(more);
    return config;
  }

  @Test
  void aLocalLakeIsOneIcebergTableThatEveryReaderSeesExactlyOnce() throws Exception {
    String topic = "ice-local";
    Path lake = root.resolve("local-lake");
    IcebergTables tables = new IcebergTables(root.resolve("local"), Map.of());
    Map<String, String> config = sink(topic, Map.of("topics.dir", lake.toString()));
    config.putAll(
        tables.connectorKeys(
            "file:" + root.resolve("local/warehouse"),
            Map.of("io-impl", "io.skippr.connect.iceberg.io.LocalFileIO")));
    ChaosStack.produceOrders(cluster, topic, PARTITIONS, PER_PARTITION);
    cluster.connect().configureConnector("ice-local", config);
    long total = PARTITIONS * PER_PARTITION;
    Await.until(
        LANDING,
        () -> "a third in Iceberg, now " + tables.describe(topic),
        () -> tables.rows(topic) >= total / 3);
    cluster.connect().restartConnectorAndTasks("ice-local", false, true, false);
    Await.until(
        LANDING,
        () -> "every record in Iceberg, now " + tables.describe(topic),
        () -> tables.rows(topic) >= total);

    Table table = tables.table(topic);
    List<String> seen = IcebergTables.positions(table);
    assertThat(seen).hasSize((int) total);
    assertThat(new TreeSet<>(seen)).isEqualTo(IcebergTables.expected(PARTITIONS, PER_PARTITION));
    List<String> files = IcebergTables.currentFiles(table);
    List<Path> local = new ArrayList<>();
    files.forEach(f -> local.add(Path.of(f.replaceFirst("^file:", ""))));
    List<String> duck = IcebergTables.duckPositions(local);
    assertThat(duck).hasSize((int) total);
    assertThat(new TreeSet<>(duck)).isEqualTo(IcebergTables.expected(PARTITIONS, PER_PARTITION));
    assertThat(files).doesNotHaveDuplicates();
    TreeSet<String> keys = new TreeSet<>();
    files.forEach(f -> keys.add(lake.relativize(Path.of(f.replaceFirst("^file:", ""))).toString()));
    assertThat(keys).isEqualTo(IcebergTables.committedKeys(lake, topic));
    assertThat(table.properties()).containsKey(TableProperties.DEFAULT_NAME_MAPPING);
  }

  @Test
  void anS3LakeIsOneIcebergTableThatEveryReaderSeesExactlyOnce() throws Exception {
    String topic = "ice-s3";
    Map<String, String> s3Io = new HashMap<>();
    s3Io.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    s3Io.put("s3.endpoint", s3.endpoint().toString());
    s3Io.put("s3.path-style-access", "true");
    s3Io.put("s3.access-key-id", S3MockServer.ACCESS_KEY);
    s3Io.put("s3.secret-access-key", S3MockServer.SECRET_KEY);
    s3Io.put("client.region", "us-east-1");
    s3Io.put("http-client.type", "urlconnection");
    IcebergTables tables = new IcebergTables(root.resolve("s3"), s3Io);
    Map<String, String> config =
        sink(
            topic,
            Map.of(
                "topics.dir",
                "s3://" + BUCKET + "/lake",
                "s3.endpoint",
                s3.endpoint().toString(),
                "s3.path.style.access",
                "true",
                "aws.access.key.id",
                S3MockServer.ACCESS_KEY,
                "aws.secret.access.key",
                S3MockServer.SECRET_KEY));
    // The catalog's FileIO takes the lake's S3 settings: only the warehouse is named.
    config.putAll(tables.connectorKeys("s3://" + BUCKET + "/warehouse", Map.of()));
    ChaosStack.produceOrders(cluster, topic, PARTITIONS, PER_PARTITION);
    cluster.connect().configureConnector("ice-s3", config);
    long total = PARTITIONS * PER_PARTITION;
    Await.until(
        LANDING,
        () -> "every record in Iceberg, now " + tables.describe(topic),
        () -> tables.rows(topic) >= total);

    Table table = tables.table(topic);
    List<String> seen = IcebergTables.positions(table);
    assertThat(seen).hasSize((int) total);
    assertThat(new TreeSet<>(seen)).isEqualTo(IcebergTables.expected(PARTITIONS, PER_PARTITION));
    Path copy = Files.createDirectories(root.resolve("s3-copy"));
    s3.download(BUCKET, "lake/", copy);
    List<String> files = IcebergTables.currentFiles(table);
    assertThat(files)
        .allMatch(f -> f.startsWith("s3://" + BUCKET + "/lake/"))
        .doesNotHaveDuplicates();
    List<Path> local = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>();
    for (String file : files) {
      String key = file.substring(("s3://" + BUCKET + "/lake/").length());
      keys.add(key);
      local.add(copy.resolve(key));
    }
    List<String> duck = IcebergTables.duckPositions(local);
    assertThat(duck).hasSize((int) total);
    assertThat(new TreeSet<>(duck)).isEqualTo(IcebergTables.expected(PARTITIONS, PER_PARTITION));
    assertThat(keys).isEqualTo(IcebergTables.committedKeys(copy, topic));
    assertThat(s3.objectKeys(BUCKET, "warehouse/")).anyMatch(k -> k.endsWith(".metadata.json"));
  }

  @Test
  void theLakesMergesAreReplaceSnapshotsAndReadersStillSeeEachRecordOnce() throws Exception {
    String topic = "ice-merged";
    Path lake = root.resolve("merged-lake");
    IcebergTables tables = new IcebergTables(root.resolve("merged"), Map.of());
    Map<String, String> config = sink(topic, Map.of("topics.dir", lake.toString()));
    config.putAll(
        tables.connectorKeys(
            "file:" + root.resolve("merged/warehouse"),
            Map.of("io-impl", "io.skippr.connect.iceberg.io.LocalFileIO")));
    config.put("compaction.enabled", "true");
    config.put("compaction.min.files", "3");
    config.put("compaction.interval.ms", "700");
    config.put("compaction.grace.ms", "3000");
    config.put("compaction.target.bytes", String.valueOf(1 << 20));
    ChaosStack.produceOrders(cluster, topic, PARTITIONS, PER_PARTITION);
    cluster.connect().configureConnector("ice-merged", config);
    long total = PARTITIONS * PER_PARTITION;
    Await.until(
        LANDING,
        () -> "merged files in Iceberg, now " + tables.describe(topic),
        () -> {
          Table table = tables.table(topic);
          return table != null
              && IcebergTables.snapshots(table).stream()
                  .anyMatch(s -> "replace".equals(s.operation()))
              && tables.rows(topic) == total
              && IcebergTables.liveKeys(lake, topic)
                  .equals(IcebergTables.tableKeys(tables.table(topic), lake));
        });

    Table table = tables.table(topic);
    List<String> seen = IcebergTables.positions(table);
    assertThat(seen).hasSize((int) total);
    assertThat(new TreeSet<>(seen)).isEqualTo(IcebergTables.expected(PARTITIONS, PER_PARTITION));
    assertThat(IcebergTables.currentFiles(table)).doesNotHaveDuplicates();
    // Fewer files than units: the merged inputs left the table with the merge.
    assertThat(IcebergTables.tableKeys(tables.table(topic), lake).size())
        .isLessThan(IcebergTables.committedKeys(lake, topic).size());
    List<Path> local = new ArrayList<>();
    IcebergTables.currentFiles(table)
        .forEach(f -> local.add(Path.of(f.replaceFirst("^file:", ""))));
    assertThat(IcebergTables.duckPositions(local)).hasSize((int) total);
  }
}
