package io.skippr.connect.state.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.PostgresServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debezium's PostgreSQL connector in the embedded engine with offsets in the state store: rows
 * inserted while it is stopped, and after it restarts, arrive exactly once.
 */
class PostgresCdcResumeIT {
  private static PostgresServer postgres;
  @TempDir Path dir;

  @BeforeAll
  static void startPostgres() {
    postgres = PostgresServer.start();
    postgres.psql("CREATE TABLE orders (id INT PRIMARY KEY, item TEXT NOT NULL)");
    postgres.psql("INSERT INTO orders VALUES (1, 'apple'), (2, 'pear'), (3, 'plum')");
  }

  @AfterAll
  static void stopPostgres() {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void changesAfterARestartArriveOnce() throws Exception {
    List<Integer> first = new Run().until(List.of(1, 2, 3), 4);
    postgres.psql("INSERT INTO orders VALUES (5, 'fig'), (6, 'kiwi')");
    List<Integer> second = new Run().until(List.of(5, 6), 7);

    assertThat(first).as("snapshot, then streaming").containsExactly(1, 2, 3, 4);
    assertThat(second)
        .as("no snapshot again, nothing twice, nothing lost")
        .containsExactly(5, 6, 7);
  }

  /** One engine run: waits for {@code expected}, inserts {@code insertWhileRunning}, waits. */
  private final class Run {
    private final List<Integer> ids = Collections.synchronizedList(new ArrayList<>());

    List<Integer> until(List<Integer> expected, int insertWhileRunning) throws Exception {
      ExecutorService executor = Executors.newSingleThreadExecutor();
      try (DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine =
          DebeziumEngine.create(Connect.class)
              .using(properties())
              .notifying(event -> collect(event.value()))
              .build()) {
        executor.execute(engine);
        Await.until(
            Duration.ofSeconds(90),
            () -> "ids " + expected + ", got " + ids,
            () -> ids.containsAll(expected));
        postgres.psql("INSERT INTO orders VALUES (" + insertWhileRunning + ", 'new')");
        Await.until(
            Duration.ofSeconds(60),
            () -> "id " + insertWhileRunning + ", got " + ids,
            () -> ids.contains(insertWhileRunning));
      } finally {
        executor.shutdown();
        assertThat(executor.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
      }
      return new ArrayList<>(ids);
    }

    private void collect(SourceRecord record) {
      if (record.topic().endsWith(".orders") && record.value() instanceof Struct envelope) {
        Struct after = envelope.getStruct("after");
        if (after != null) {
          ids.add(after.getInt32("id"));
        }
      }
    }

    private Properties properties() {
      Properties props = new Properties();
      props.put("name", "pg-orders");
      props.put("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
      props.put("offset.storage", StateStoreOffsetBackingStore.class.getName());
      props.put("offset.flush.interval.ms", "0");
      props.put("store.type", "rocksdb");
      props.put("store.rocksdb.path", dir.toString());
      props.put("database.hostname", postgres.host());
      props.put("database.port", Integer.toString(postgres.port()));
      props.put("database.user", PostgresServer.USER);
      props.put("database.password", "unused");
      props.put("database.dbname", PostgresServer.DATABASE);
      props.put("topic.prefix", "pg");
      props.put("plugin.name", "pgoutput");
      props.put("slot.name", "skippr_it");
      props.put("publication.autocreate.mode", "filtered");
      props.put("table.include.list", "public.orders");
      props.put("record.processing.threads", "1");
      return props;
    }
  }
}
