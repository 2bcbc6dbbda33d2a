package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CDC lands as the current table: Debezium's PostgreSQL connector in Connect writes a table's
 * changes to Kafka, ExtractNewRecordState unwraps them, and the lake sink with {@code
 * write.policy=merge_by_key} compacts them, so that DuckDB's view of the lake table, through its
 * log and through a glob, equals the PostgreSQL table after inserts, updates and deletes, with no
 * row to filter out. Two pipelines read the same table: one unwraps deletes as {@code
 * __deleted=true} rows ({@code delete.tombstone.handling.mode=rewrite}), the other with Debezium's
 * default, as tombstones keyed by the primary key, which the sink applies with its default null
 * handling.
 */
class MergeByKeyCdcIT {
  private static final Path DEBEZIUM = Path.of("target/debezium-plugins").toAbsolutePath();
  private static final String TABLE = "cdc.public.customers";
  private static final String TOMBSTONES_TABLE = "tomb.public.customers";

  @TempDir static Path dir;
  private static PostgresServer postgres;
  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    postgres = PostgresServer.start();
    postgres.psql(
        "CREATE TABLE customers (id INT PRIMARY KEY, name TEXT NOT NULL, tier TEXT NOT NULL,"
            + " visits INT NOT NULL)");
    postgres.psql("ALTER TABLE customers REPLICA IDENTITY FULL");
    cluster =
        ConnectCluster.start(
            "merge-by-key-cdc",
            1,
            Map.of("plugin.path", ConnectCluster.pluginDir() + "," + DEBEZIUM));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void insertsUpdatesAndDeletesLandAsTheCurrentTable() throws Exception {
    StringBuilder inserts = new StringBuilder("INSERT INTO customers VALUES ");
    for (int id = 1; id <= 60; id++) {
      inserts.append(id > 1 ? "," : "").append("(" + id + ", 'c" + id + "', 'basic', 0)");
    }
    postgres.psql(inserts.toString());
    Path lake = dir.resolve("lake");
    Path tombstones = dir.resolve("tombstones-lake");
    cluster.connect().configureConnector("pg", source("cdc", "rewrite"));
    cluster.connect().configureConnector("pg-tombstones", source("tomb", null));
    cluster.connect().configureConnector("lake", sink(lake, TABLE));
    cluster.connect().configureConnector("tombstones-lake", sink(tombstones, TOMBSTONES_TABLE));
    cluster.awaitRunning("pg", 1, Duration.ofSeconds(90));
    cluster.awaitRunning("pg-tombstones", 1, Duration.ofSeconds(90));
    cluster.awaitRunning("lake", 1, Duration.ofSeconds(60));
    cluster.awaitRunning("tombstones-lake", 1, Duration.ofSeconds(60));

    for (int round = 1; round <= 6; round++) {
      postgres.psql("UPDATE customers SET visits = visits + 1 WHERE id % " + (round + 1) + " = 0");
      postgres.psql("UPDATE customers SET tier = 'gold' WHERE id % 7 = " + round % 7);
      postgres.psql("DELETE FROM customers WHERE id = " + (round * 9));
      postgres.psql(
          "INSERT INTO customers VALUES ("
              + (100 + round)
              + ", 'n"
              + round
              + "', 'new', "
              + round
              + ")");
    }
    postgres.psql("UPDATE customers SET name = 'again' WHERE id = 101");
    postgres.psql("DELETE FROM customers WHERE id = 102");

    List<String> expected = table();
    assertThat(expected).hasSize(60 - 6 + 6 - 1);
    for (Path at : List.of(lake, tombstones)) {
      String table = at.equals(lake) ? TABLE : TOMBSTONES_TABLE;
      Await.until(
          Duration.ofMinutes(3),
          () ->
              table
                  + " equals PostgreSQL's table; the lake has "
                  + lake(at, table)
                  + " in "
                  + ManifestView.fileCount(at, table)
                  + " file(s)",
          () -> lake(at, table).equals(expected) && ManifestView.fileCount(at, table) == 1);
      assertThat(glob(at, table)).as("a glob of " + table).isEqualTo(expected);
    }
  }

  /** PostgreSQL's table, one line per row. */
  private static List<String> table() throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, "");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT id, name, tier, visits FROM customers ORDER BY id")) {
      while (r.next()) {
        rows.add(r.getInt(1) + " " + r.getString(2) + " " + r.getString(3) + " " + r.getInt(4));
      }
    }
    return rows;
  }

  /** The lake table through its log, every row (no delete to filter out), one line per row. */
  private static List<String> lake(Path lake, String table) {
    return lines(ManifestView.query(lake, table, "id, name, tier, visits", "order by id"));
  }

  /** The lake table through a glob of its directory. */
  private static List<String> glob(Path lake, String table) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      return lines(
          duck.query(
              "select id, name, tier, visits from read_parquet('"
                  + lake.resolve(table)
                  + "/**/*.parquet', union_by_name=true) order by id"));
    }
  }

  private static List<String> lines(List<Map<String, Object>> rows) {
    List<String> lines = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      lines.add(
          row.get("id") + " " + row.get("name") + " " + row.get("tier") + " " + row.get("visits"));
    }
    return lines;
  }

  /**
   * @param handling ExtractNewRecordState's delete.tombstone.handling.mode, null for its default (a
   *     delete becomes a tombstone)
   */
  private static Map<String, String> source(String prefix, String handling) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    c.put("tasks.max", "1");
    c.put("database.hostname", postgres.host());
    c.put("database.port", Integer.toString(postgres.port()));
    c.put("database.user", PostgresServer.USER);
    c.put("database.password", "unused");
    c.put("database.dbname", PostgresServer.DATABASE);
    c.put("topic.prefix", prefix);
    c.put("plugin.name", "pgoutput");
    c.put("slot.name", "skippr_" + prefix);
    c.put("publication.name", "skippr_" + prefix);
    c.put("publication.autocreate.mode", "filtered");
    c.put("table.include.list", "public.customers");
    c.put("topic.creation.default.replication.factor", "1");
    c.put("topic.creation.default.partitions", "1");
    c.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("transforms", "unwrap");
    c.put("transforms.unwrap.type", "io.debezium.transforms.ExtractNewRecordState");
    if (handling != null) {
      c.put("transforms.unwrap.delete.tombstone.handling.mode", handling);
    }
    return c;
  }

  /** merge_by_key on id, every other setting of deletes at its default. */
  private static Map<String, String> sink(Path lake, String topic) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    c.put("tasks.max", "1");
    c.put("topics", topic);
    c.put("topics.dir", lake.toString());
    c.put("store.rocksdb.path", lake.resolveSibling(lake.getFileName() + "-state").toString());
    c.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("write.policy", "merge_by_key");
    c.put("merge.key.fields", "id");
    c.put("flush.size", "10");
    c.put("rotate.schedule.interval.ms", "1000");
    c.put("compaction.min.files", "2");
    c.put("compaction.interval.ms", "1000");
    c.put("compaction.grace.ms", "0");
    c.put("compaction.target.bytes", String.valueOf(1 << 20));
    c.put("errors.tolerance", "none");
    return c;
  }
}
