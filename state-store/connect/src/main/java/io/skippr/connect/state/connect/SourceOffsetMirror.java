package io.skippr.connect.state.connect;

import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.connect.ConnectOffsetCodec.OffsetKey;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Mirrors a source connector's offsets into the state store in Connect's own encoding, so the same
 * bytes serve the offsets topic, KIP-875 REST and the embedded engine.
 *
 * <p>In a task: call {@link #track} from {@code SourceTask.commitRecord} and {@link
 * #mirrorCommitted} from {@code SourceTask.commit()}; the mirror then copies only offsets Kafka has
 * committed, never more. In a connector's {@code alterOffsets}, call {@link #alter}. At start,
 * {@link #resume} prefers Kafka's offset, rebuilds a missing row from it, falls back to the mirror
 * when Kafka has none, and returns empty (start from the beginning) when both are gone.
 */
public final class SourceOffsetMirror {
  private final StateStore store;
  private final StateScope scope;
  private final String connector;
  private final ConnectOffsetCodec codec = new ConnectOffsetCodec();
  private final Set<Map<String, Object>> tracked = ConcurrentHashMap.newKeySet();
  private final Map<Map<String, Object>, byte[]> mirrored = new ConcurrentHashMap<>();

  public SourceOffsetMirror(StateStore store, StateScope scope, String connector) {
    this.store = Objects.requireNonNull(store, "store");
    this.scope = Objects.requireNonNull(scope, "scope");
    this.connector = Objects.requireNonNull(connector, "connector");
  }

  /** Remembers the record's source partition; its offset is mirrored once Kafka committed it. */
  public void track(SourceRecord record) {
    if (record.sourcePartition() != null) {
      tracked.add(copy(record.sourcePartition()));
    }
  }

  /**
   * Copies Kafka's committed offsets of the tracked partitions into the store (rows that did not
   * change are not rewritten). Returns how many rows were written.
   */
  public int mirrorCommitted(OffsetStorageReader kafka) {
    List<Map<String, Object>> partitions = List.copyOf(tracked);
    if (partitions.isEmpty()) {
      return 0;
    }
    int written = 0;
    for (Map.Entry<Map<String, Object>, Map<String, Object>> committed :
        kafka.offsets(partitions).entrySet()) {
      if (committed.getValue() != null && write(committed.getKey(), committed.getValue())) {
        written++;
      }
    }
    return written;
  }

  /** Writes one partition's offset now; a null offset deletes the row. */
  public void mirror(Map<String, ?> partition, Map<String, ?> offset) {
    if (offset == null) {
      byte[] key = codec.key(connector, partition);
      store.delete(OffsetRows.key(scope, key));
      mirrored.remove(copy(partition));
    } else {
      write(partition, offset);
    }
  }

  /** Applies offsets changed through Connect's REST API (KIP-875): null values reset. */
  public void alter(Map<? extends Map<String, ?>, ? extends Map<String, ?>> offsets) {
    offsets.forEach(this::mirror);
  }

  /** The mirrored offset of a partition. */
  public Optional<Map<String, Object>> read(Map<String, ?> partition) {
    byte[] key = codec.key(connector, partition);
    return store
        .get(OffsetRows.key(scope, key))
        .map(row -> codec.decodeValue(OffsetRows.connectValue(row)));
  }

  /** Every mirrored partition of this connector and its offset. */
  public Map<Map<String, Object>, Map<String, Object>> readAll() {
    Map<Map<String, Object>, Map<String, Object>> all = new HashMap<>();
    for (StateEntry row : store.scanAll(scope, StateKind.OFFSET.prefix())) {
      OffsetKey key = codec.decodeKey(OffsetRows.connectKey(row));
      if (key.connector().equals(connector)) {
        all.put(key.partition(), codec.decodeValue(OffsetRows.connectValue(row)));
      }
    }
    return all;
  }

  /**
   * Where to resume a partition: Kafka's committed offset when it has one (and the mirror is
   * repaired from it), else the mirrored one, else empty: start from the beginning.
   */
  public Optional<Map<String, Object>> resume(Map<String, ?> partition, OffsetStorageReader kafka) {
    Map<String, Object> fromKafka = kafka == null ? null : kafka.offset(partition);
    if (fromKafka != null) {
      write(partition, fromKafka);
      return Optional.of(fromKafka);
    }
    return read(partition);
  }

  private boolean write(Map<String, ?> partition, Map<String, ?> offset) {
    Map<String, Object> partitionCopy = copy(partition);
    byte[] key = codec.key(connector, partition);
    byte[] value = codec.value(connector, offset);
    if (Arrays.equals(mirrored.get(partitionCopy), value)) {
      return false;
    }
    Optional<StateEntry> current = store.get(OffsetRows.key(scope, key));
    boolean same =
        current.isPresent() && Arrays.equals(OffsetRows.connectValue(current.get()), value);
    if (!same) {
      store.put(OffsetRows.key(scope, key), OffsetRows.value(key, value));
    }
    mirrored.put(partitionCopy, value);
    return !same;
  }

  private static Map<String, Object> copy(Map<String, ?> map) {
    return new HashMap<>(map);
  }
}
