package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
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
 * changes to Kafka, ExtractNewRecordState unwraps them (deletes as {@code __deleted=true}), and the
 * lake sink with {@code write.policy=merge_by_key} compacts them, so that DuckDB's view of the lake
 * table equals the PostgreSQL table after inserts, updates and deletes.
 */
class MergeByKeyCdcIT {
  private static final Path DEBEZIUM = Path.of("target/debezium-plugins").toAbsolutePath();
  private static final String TABLE = "cdc.public.customers";

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
    cluster.connect().configureConnector("pg", source());
    cluster.connect().configureConnector("lake", sink(lake));
    cluster.awaitRunning("pg", 1, Duration.ofSeconds(90));
    cluster.awaitRunning("lake", 1, Duration.ofSeconds(60));

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
    Await.until(
        Duration.ofMinutes(3),
        () ->
            "the lake table equals PostgreSQL's; lake has "
                + lake(lake)
                + " in "
                + ManifestView.fileCount(lake, TABLE)
                + " file(s)",
        () -> lake(lake).equals(expected) && ManifestView.fileCount(lake, TABLE) == 1);
    assertThat(expected).hasSize(60 - 6 + 6 - 1);
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

  /** The lake table through its log, rows that are not deletes, one line per row. */
  private static List<String> lake(Path lake) {
    List<String> rows = new ArrayList<>();
    for (Map<String, Object> row :
        ManifestView.query(
            lake,
            TABLE,
            "id, name, tier, visits",
            "where coalesce(__deleted::varchar, 'false') <> 'true' order by id")) {
      rows.add(
          row.get("id") + " " + row.get("name") + " " + row.get("tier") + " " + row.get("visits"));
    }
    return rows;
  }

  private static Map<String, String> source() {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    c.put("tasks.max", "1");
    c.put("database.hostname", postgres.host());
    c.put("database.port", Integer.toString(postgres.port()));
    c.put("database.user", PostgresServer.USER);
    c.put("database.password", "unused");
    c.put("database.dbname", PostgresServer.DATABASE);
    c.put("topic.prefix", "cdc");
    c.put("plugin.name", "pgoutput");
    c.put("slot.name", "skippr_merge");
    c.put("publication.autocreate.mode", "filtered");
    c.put("table.include.list", "public.customers");
    c.put("topic.creation.default.replication.factor", "1");
    c.put("topic.creation.default.partitions", "1");
    c.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("transforms", "unwrap");
    c.put("transforms.unwrap.type", "io.debezium.transforms.ExtractNewRecordState");
    c.put("transforms.unwrap.delete.tombstone.handling.mode", "rewrite");
    return c;
  }

  private static Map<String, String> sink(Path lake) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    c.put("tasks.max", "1");
    c.put("topics", TABLE);
    c.put("topics.dir", lake.toString());
    c.put("store.rocksdb.path", dir.resolve("state").toString());
    c.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("write.policy", "merge_by_key");
    c.put("merge.key.fields", "id");
    c.put("merge.delete.retention.ms", "0");
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
