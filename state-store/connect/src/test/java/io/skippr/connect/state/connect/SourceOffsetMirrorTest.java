package io.skippr.connect.state.connect;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.standalone.StandaloneConfig;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.apache.kafka.connect.storage.OffsetStorageReaderImpl;
import org.apache.kafka.connect.storage.OffsetStorageWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceOffsetMirrorTest {
  private static final String CONNECTOR = "http-ingest";
  private static final Map<String, Object> PARTITION = Map.of("endpoint", "/write");

  @TempDir Path dir;
  private StateStore store;
  private final StateScope scope = StateScope.ofPipeline(CONNECTOR);
  private SourceOffsetMirror mirror;

  @BeforeEach
  void open() {
    store = StateStores.open(Map.of(), StoreEnvironment.of(Map.of(), dir));
    mirror = new SourceOffsetMirror(store, scope, CONNECTOR);
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** Connect's own writer, with converters configured as a worker configures its internal ones. */
  private static Map<ByteBuffer, ByteBuffer> writtenByConnect(
      Map<String, Object> partition, Map<String, Object> offset) throws Exception {
    Map<ByteBuffer, ByteBuffer> captured = new HashMap<>();
    MemoryOffsetBackingStore backing =
        new MemoryOffsetBackingStore() {
          @Override
          public java.util.Set<Map<String, Object>> connectorPartitions(String connectorName) {
            return java.util.Set.of();
          }

          @Override
          protected void save() {
            captured.putAll(data);
          }
        };
    backing.configure(workerConfig(Map.of()));
    backing.start();
    try {
      OffsetStorageWriter writer =
          new OffsetStorageWriter(
              backing, CONNECTOR, internalConverter(true), internalConverter(false));
      writer.offset(partition, offset);
      writer.beginFlush();
      writer.doFlush((e, r) -> {}).get(10, TimeUnit.SECONDS);
    } finally {
      backing.stop();
    }
    return captured;
  }

  static JsonConverter internalConverter(boolean isKey) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "false"), isKey);
    return converter;
  }

  /** A worker config as the embedded engine builds one; no broker is contacted. */
  static StandaloneConfig workerConfig(Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put("bootstrap.servers", "127.0.0.1:9");
    props.put("key.converter", JsonConverter.class.getName());
    props.put("value.converter", JsonConverter.class.getName());
    props.put("offset.storage.file.filename", "unused");
    return new StandaloneConfig(props);
  }

  @Test
  void rowsHoldExactlyTheBytesConnectWritesToItsOffsetsTopic() throws Exception {
    Map<String, Object> offset = Map.of("seq", 41L, "file", "a.log");
    Map<ByteBuffer, ByteBuffer> connect = writtenByConnect(PARTITION, offset);
    assertThat(connect).hasSize(1);
    ByteBuffer connectKey = connect.keySet().iterator().next();

    mirror.mirror(PARTITION, offset);

    List<StateEntry> rows = store.scanAll(scope, StateKind.OFFSET.prefix());
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).key().id().getBytes(UTF_8)).isEqualTo(bytes(connectKey));
    assertThat(rows.get(0).key().id()).isEqualTo("[\"http-ingest\",{\"endpoint\":\"/write\"}]");
    assertThat(rows.get(0).value()).isEqualTo(bytes(connect.get(connectKey)));
    assertThat(mirror.read(PARTITION)).contains(Map.of("seq", 41L, "file", "a.log"));
  }

  @Test
  void mirrorsOnlyWhatKafkaCommittedForTrackedPartitions() {
    Map<String, Object> other = Map.of("endpoint", "/other");
    FakeKafkaOffsets kafka = new FakeKafkaOffsets();
    kafka.committed.put(PARTITION, Map.of("seq", 10L));
    kafka.committed.put(other, Map.of("seq", 99L));

    mirror.track(new SourceRecord(PARTITION, Map.of("seq", 12L), "t", null, "v"));
    assertThat(mirror.mirrorCommitted(kafka)).isEqualTo(1);
    assertThat(mirror.read(PARTITION))
        .as("Kafka's committed offset, not the record's")
        .contains(Map.of("seq", 10L));
    assertThat(mirror.read(other)).as("never tracked").isEmpty();
    assertThat(mirror.mirrorCommitted(kafka)).as("unchanged rows are not rewritten").isZero();
    kafka.committed.put(PARTITION, Map.of("seq", 12L));
    assertThat(mirror.mirrorCommitted(kafka)).isEqualTo(1);
    assertThat(mirror.read(PARTITION)).contains(Map.of("seq", 12L));
  }

  @Test
  void restOffsetChangesAreApplied() {
    Map<String, Object> other = Map.of("endpoint", "/other");
    mirror.mirror(PARTITION, Map.of("seq", 5L));
    mirror.mirror(other, Map.of("seq", 6L));
    Map<Map<String, Object>, Map<String, Object>> altered = new HashMap<>();
    altered.put(PARTITION, Map.of("seq", 100L));
    altered.put(other, null);
    mirror.alter(altered);
    assertThat(mirror.readAll()).isEqualTo(Map.of(PARTITION, Map.of("seq", 100L)));
  }

  @Test
  void resumePrefersKafkaRebuildsMissingRowsAndOtherwiseStartsFromTheBeginning() {
    FakeKafkaOffsets kafka = new FakeKafkaOffsets();
    assertThat(mirror.resume(PARTITION, kafka)).as("both gone").isEmpty();

    mirror.mirror(PARTITION, Map.of("seq", 7L));
    assertThat(mirror.resume(PARTITION, kafka))
        .as("Kafka lost its offsets")
        .contains(Map.of("seq", 7L));

    mirror.mirror(PARTITION, null);
    kafka.committed.put(PARTITION, Map.of("seq", 8L));
    assertThat(mirror.resume(PARTITION, kafka)).contains(Map.of("seq", 8L));
    assertThat(mirror.read(PARTITION)).as("row rebuilt from Kafka").contains(Map.of("seq", 8L));
  }

  @Test
  void theEmbeddedOffsetStoreAndTheMirrorShareRows() throws Exception {
    StateStoreOffsetBackingStore backing =
        new StateStoreOffsetBackingStore(StoreEnvironment.of(Map.of(), dir));
    backing.configure(workerConfig(Map.of("name", CONNECTOR)));
    backing.start();
    try {
      mirror.mirror(PARTITION, Map.of("seq", 3L));
      OffsetStorageReaderImpl reader =
          new OffsetStorageReaderImpl(
              backing, CONNECTOR, internalConverter(true), internalConverter(false));
      assertThat(reader.offset(PARTITION)).isEqualTo(Map.of("seq", 3L));

      OffsetStorageWriter writer =
          new OffsetStorageWriter(
              backing, CONNECTOR, internalConverter(true), internalConverter(false));
      Map<String, Object> longPartition = Map.of("file", "/var/log/" + "x".repeat(2000));
      writer.offset(PARTITION, Map.of("seq", 4L));
      writer.offset(longPartition, Map.of("seq", 1L));
      writer.beginFlush();
      writer.doFlush((e, r) -> {}).get(10, TimeUnit.SECONDS);

      assertThat(mirror.read(PARTITION)).contains(Map.of("seq", 4L));
      assertThat(mirror.read(longPartition)).contains(Map.of("seq", 1L));
      assertThat(backing.connectorPartitions(CONNECTOR))
          .containsExactlyInAnyOrder(PARTITION, longPartition);
      assertThat(backing.connectorPartitions("someone-else")).isEmpty();
      assertThat(store.scanAll(scope, StateKind.OFFSET.prefix()))
          .extracting(e -> e.key().id())
          .anyMatch(id -> id.startsWith(OffsetRows.HASHED_ID_PREFIX));
    } finally {
      backing.stop();
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] b = new byte[buffer.remaining()];
    buffer.duplicate().get(b);
    return b;
  }

  /** Kafka's committed offsets, as the task's OffsetStorageReader would return them. */
  static final class FakeKafkaOffsets implements OffsetStorageReader {
    final Map<Map<String, ?>, Map<String, Object>> committed = new HashMap<>();

    @Override
    public <T> Map<String, Object> offset(Map<String, T> partition) {
      return committed.get(partition);
    }

    @Override
    public <T> Map<Map<String, T>, Map<String, Object>> offsets(
        Collection<Map<String, T>> partitions) {
      Map<Map<String, T>, Map<String, Object>> result = new HashMap<>();
      partitions.forEach(p -> result.put(p, committed.get(p)));
      return result;
    }
  }
}
