package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.PostgresServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debezium's PostgreSQL connector, installed in a plugin directory of its own, through {@code
 * skippr sync --once} into the lake: the snapshot, then inserts, updates and deletes, each change
 * once; a run without changes lands nothing and takes no second snapshot.
 */
class SyncPostgresCdcIT {
  private static final Path PLUGINS = Path.of("target/debezium-plugins").toAbsolutePath();
  private static final String TABLE = "pg.public.orders";
  private static PostgresServer postgres;

  @TempDir Path dir;

  @BeforeAll
  static void startPostgres() {
    postgres = PostgresServer.start();
    postgres.psql(
        "CREATE TABLE orders (id INT PRIMARY KEY, item TEXT NOT NULL, qty INT NOT NULL,"
            + " placed_at TIMESTAMPTZ NOT NULL DEFAULT '2026-11-30 10:00:00+00')");
    // Deletes carry the whole row they removed, not only its key.
    postgres.psql("ALTER TABLE orders REPLICA IDENTITY FULL");
    postgres.psql(
        "INSERT INTO orders (id, item, qty) VALUES (1, 'apple', 3), (2, 'pear', 1), (3, 'plum', 7)");
  }

  @AfterAll
  static void stopPostgres() {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void snapshotInsertsUpdatesAndDeletesArriveOnce() throws Exception {
    SyncCli cli = new SyncCli(dir, Map.of());
    Path lake = dir.resolve("lake");
    cli.pipeline("pg", pipeline(lake));

    SyncCli.Result snapshot = cli.once("pg", "--plugin-dir", PLUGINS.toString());
    assertThat(snapshot.exit()).as(snapshot.output()).isZero();
    assertThat(changes(lake)).containsExactly("r 1 apple", "r 2 pear", "r 3 plum");

    postgres.psql("INSERT INTO orders (id, item, qty) VALUES (4, 'fig', 2), (5, 'kiwi', 9)");
    postgres.psql("UPDATE orders SET qty = 8, item = 'pears' WHERE id = 2");
    postgres.psql("DELETE FROM orders WHERE id = 3");
    SyncCli.Result stream = cli.once("pg", "--plugin-dir", PLUGINS.toString());
    assertThat(stream.exit()).as(stream.output()).isZero();
    assertThat(changes(lake))
        .as("every change once, in order; the snapshot is not taken again")
        .containsExactly(
            "r 1 apple", "r 2 pear", "r 3 plum", "c 4 fig", "c 5 kiwi", "u 2 pears", "d 3 plum");

    SyncCli.Result idle = cli.once("pg", "--plugin-dir", PLUGINS.toString());
    assertThat(idle.exit()).as(idle.output()).isZero();
    assertThat(idle.event("sync_complete").path("units").asLong()).isZero();
    assertThat(changes(lake)).hasSize(7);
  }

  /** Each change as "op id item", in the order the database made them. */
  private static List<String> changes(Path lake) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      List<String> changes = new ArrayList<>();
      for (Map<String, Object> row :
          duck.query(
              "select op, coalesce(after.id, before.id) as id, coalesce(after.item, before.item)"
                  + " as item from ${table:"
                  + TABLE
                  + "} order by source.lsn nulls first, id")) {
        changes.add(row.get("op") + " " + row.get("id") + " " + row.get("item"));
      }
      return changes;
    }
  }

  private static Map<String, Object> pipeline(Path lake) {
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("database.hostname", postgres.host());
    config.put("database.port", postgres.port());
    config.put("database.user", PostgresServer.USER);
    config.put("database.password", "unused");
    config.put("database.dbname", PostgresServer.DATABASE);
    config.put("topic.prefix", "pg");
    config.put("plugin.name", "pgoutput");
    config.put("slot.name", "skippr_sync");
    config.put("publication.autocreate.mode", "filtered");
    config.put("table.include.list", "public.orders");
    config.put("tombstones.on.delete", false);
    Map<String, Object> pipeline = new LinkedHashMap<>();
    pipeline.put(
        "source",
        Map.of("class", "io.debezium.connector.postgresql.PostgresConnector", "config", config));
    pipeline.put(
        "lake", Map.of("config", Map.of("topics.dir", lake.toString(), "flush.size", 100)));
    pipeline.put("sync", Map.of("idle.ms", 3000));
    return pipeline;
  }
}
