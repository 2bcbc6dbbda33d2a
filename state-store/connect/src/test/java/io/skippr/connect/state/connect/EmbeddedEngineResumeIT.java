package io.skippr.connect.state.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DynaliteServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A source run by Debezium's embedded engine resumes exactly where it stopped, no Kafka. */
class EmbeddedEngineResumeIT {
  private static final String NAME = "counter";
  @TempDir Path dir;

  @Test
  void resumesFromRocksDb() throws Exception {
    Map<String, String> store =
        Map.of("store.type", "rocksdb", "store.rocksdb.path", dir.toString());
    runTwiceAndCheck(store);
  }

  @Test
  void resumesFromDynamoDb() throws Exception {
    try (DynaliteServer dynalite = DynaliteServer.start()) {
      Map<String, String> store =
          Map.of(
              "store.type", "dynamodb",
              "store.name", "engine-offsets",
              "store.dynamodb.endpoint", dynalite.endpoint().toString(),
              "store.dynamodb.create.table", "true");
      runTwiceAndCheck(store);
    }
  }

  private void runTwiceAndCheck(Map<String, String> storeConfig) throws Exception {
    List<Long> first = run(storeConfig, 40);
    List<Long> second = run(storeConfig, 40);

    assertThat(first).containsExactlyElementsOf(range(0, first.size()));
    assertThat(second)
        .as("the second run continues after the last record of the first")
        .containsExactlyElementsOf(range(first.size(), first.size() + second.size()));

    try (StateStore store = StateStores.open(storeConfig, StoreEnvironment.of(Map.of(), dir))) {
      SourceOffsetMirror rows = new SourceOffsetMirror(store, StateScope.ofPipeline(NAME), NAME);
      assertThat(rows.readAll())
          .isEqualTo(
              Map.of(
                  CountingSourceConnector.PARTITION,
                  Map.of("n", first.size() + second.size() - 1L)));
    }
  }

  /** Runs the engine until it delivered at least {@code atLeast} records, then stops it. */
  private List<Long> run(Map<String, String> storeConfig, int atLeast) throws Exception {
    Properties props = new Properties();
    props.putAll(storeConfig);
    props.put("name", NAME);
    props.put("connector.class", CountingSourceConnector.class.getName());
    props.put("offset.storage", StateStoreOffsetBackingStore.class.getName());
    props.put("offset.flush.interval.ms", "0");
    props.put("record.processing.threads", "1");
    List<Long> received = Collections.synchronizedList(new ArrayList<>());
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try (DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine =
        DebeziumEngine.create(Connect.class)
            .using(props)
            .notifying(event -> received.add((Long) event.value().value()))
            .build()) {
      executor.execute(engine);
      Await.until(
          Duration.ofSeconds(60),
          () -> "at least " + atLeast + " records, got " + received.size(),
          () -> received.size() >= atLeast);
    } finally {
      executor.shutdown();
      assertThat(executor.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }
    return new ArrayList<>(received);
  }

  private static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }
}
