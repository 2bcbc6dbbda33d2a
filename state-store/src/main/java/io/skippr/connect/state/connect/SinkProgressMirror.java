package io.skippr.connect.state.connect;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreException;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * Mirrors the sink's committed progress per topic-partition to {@code progress#{topic}/{partition}}
 * as JSON ({@code end_offset}, {@code compaction_id}, {@code epoch}, {@code log_seq}). The lake's
 * TP log is the truth; this row lets a new process find its place without reading the log.
 */
public final class SinkProgressMirror {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_RACES = 16;

  private final StateStore store;
  private final StateScope scope;

  public SinkProgressMirror(StateStore store, StateScope scope) {
    this.store = Objects.requireNonNull(store, "store");
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  /** The row key of a topic-partition, e.g. {@code progress#orders/3}. */
  public StateKey key(String topic, int partition) {
    return StateKey.of(scope, StateKind.PROGRESS, topic + "/" + partition);
  }

  /**
   * Records progress after a commit. Never moves backwards: returns false (and writes nothing) when
   * the stored progress is already at or after this one, e.g. written by a newer epoch.
   */
  public boolean record(String topic, int partition, SinkProgress progress) {
    StateKey key = key(topic, partition);
    byte[] value = encode(progress);
    for (int race = 0; race < MAX_RACES; race++) {
      Optional<StateEntry> current = store.get(key);
      if (current.isPresent() && !progress.isAfter(decode(current.get()))) {
        return false;
      }
      long version = current.map(StateEntry::version).orElse(0L);
      if (store.compareAndSet(key, version, value).isPresent()) {
        return true;
      }
    }
    throw new StateStoreException(
        "progress row " + key + " kept changing under " + MAX_RACES + " attempts to update it");
  }

  public Optional<SinkProgress> read(String topic, int partition) {
    return store.get(key(topic, partition)).map(SinkProgressMirror::decode);
  }

  /** Forgets a partition's progress (e.g. after its lake log was deliberately removed). */
  public boolean clear(String topic, int partition) {
    return store.delete(key(topic, partition));
  }

  private static byte[] encode(SinkProgress progress) {
    try {
      return JSON.writeValueAsBytes(progress);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static SinkProgress decode(StateEntry row) {
    try {
      return JSON.readValue(row.value(), SinkProgress.class);
    } catch (IOException e) {
      throw new StateStoreException("progress row " + row.key() + " is not valid progress JSON", e);
    }
  }
}
