package io.skippr.connect.state.rocksdb;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StatePage;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;

/** The local backend: one handle on a directory shared with the JVM's other tasks. */
public final class RocksDbStateStore implements StateStore {
  private final SharedRocksDb shared;
  private final Clock clock;
  private final AtomicBoolean closed = new AtomicBoolean();

  RocksDbStateStore(SharedRocksDb shared, Clock clock) {
    this.shared = shared;
    this.clock = clock;
  }

  @Override
  public Optional<StateEntry> get(StateKey key) {
    ensureOpen();
    byte[] stored = shared.run("get", (db, w) -> db.get(StoredRow.key(key)));
    return Optional.ofNullable(stored).map(s -> StoredRow.decode(key, s));
  }

  @Override
  public StateEntry put(StateKey key, byte[] value) {
    return write(key, -1, value).orElseThrow();
  }

  @Override
  public Optional<StateEntry> compareAndSet(StateKey key, long expectedVersion, byte[] value) {
    if (expectedVersion < 0) {
      throw new IllegalArgumentException("expected version must be >= 0");
    }
    return write(key, expectedVersion, value);
  }

  @Override
  public boolean delete(StateKey key) {
    return remove(key, -1);
  }

  @Override
  public boolean compareAndDelete(StateKey key, long expectedVersion) {
    if (expectedVersion < 1) {
      throw new IllegalArgumentException("expected version of an existing row must be >= 1");
    }
    return remove(key, expectedVersion);
  }

  @Override
  public StatePage scan(StateScope scope, String keyPrefix, String startAfter, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("scan limit must be >= 1");
    }
    ensureOpen();
    String scopeText = scope.encoded();
    int scopeBytes = scopeText.getBytes(StandardCharsets.UTF_8).length;
    byte[] prefix = StoredRow.rowKey(scopeText, keyPrefix);
    byte[] after = startAfter == null ? null : StoredRow.rowKey(scopeText, startAfter);
    byte[] start = after == null || Arrays.compareUnsigned(after, prefix) < 0 ? prefix : after;
    return shared.run(
        "scan",
        (db, w) -> {
          List<StateEntry> entries = new ArrayList<>();
          boolean more = false;
          try (ReadOptions options = new ReadOptions();
              RocksIterator it = db.newIterator(options)) {
            for (it.seek(start); it.isValid() && startsWith(it.key(), prefix); it.next()) {
              if (after != null && Arrays.equals(it.key(), after)) {
                continue;
              }
              if (entries.size() == limit) {
                more = true;
                break;
              }
              StateKey key = StateKey.parse(scope, StoredRow.sortKey(it.key(), scopeBytes));
              entries.add(StoredRow.decode(key, it.value()));
            }
            it.status();
          }
          Optional<String> next =
              more
                  ? Optional.of(entries.get(entries.size() - 1).key().encoded())
                  : Optional.empty();
          return new StatePage(entries, next);
        });
  }

  @Override
  public String describe() {
    return "rocksdb at " + shared.directory();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      shared.release();
    }
  }

  /** Writes under the key's lock stripe; expectedVersion -1 means unconditional. */
  private Optional<StateEntry> write(StateKey key, long expectedVersion, byte[] value) {
    ensureOpen();
    byte[] rowKey = StoredRow.key(key);
    byte[] copy = value.clone();
    byte[] sha = Sha256.digest(copy);
    ReentrantLock lock = shared.lockFor(rowKey);
    lock.lock();
    try {
      return shared.run(
          "write",
          (db, writeOptions) -> {
            long current = StoredRow.version(db.get(rowKey));
            if (expectedVersion >= 0 && current != expectedVersion) {
              return Optional.empty();
            }
            Instant now = Instant.ofEpochMilli(clock.millis());
            db.put(writeOptions, rowKey, StoredRow.encode(copy, current + 1, sha, now));
            return Optional.of(
                new StateEntry(key, copy, current + 1, HexFormat.of().formatHex(sha), now));
          });
    } finally {
      lock.unlock();
    }
  }

  private boolean remove(StateKey key, long expectedVersion) {
    ensureOpen();
    byte[] rowKey = StoredRow.key(key);
    ReentrantLock lock = shared.lockFor(rowKey);
    lock.lock();
    try {
      return shared.run(
          "delete",
          (db, writeOptions) -> {
            long current = StoredRow.version(db.get(rowKey));
            if (current == 0 || (expectedVersion >= 0 && current != expectedVersion)) {
              return false;
            }
            db.delete(writeOptions, rowKey);
            return true;
          });
    } finally {
      lock.unlock();
    }
  }

  private void ensureOpen() {
    if (closed.get()) {
      throw new IllegalStateException("this handle on " + describe() + " is closed");
    }
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
