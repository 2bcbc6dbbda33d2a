package io.skippr.connect.state.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Resume state kept outside Kafka: small versioned rows addressed by {@link StateKey}.
 *
 * <p>Versions start at 1 for the first write and grow by one with every write; an absent row has
 * version 0, so {@code compareAndSet(key, 0, value)} creates a row only if it does not exist.
 * Deleting a row returns it to version 0. All operations are safe to call from many threads and,
 * for shared backends, from many processes.
 */
public interface StateStore extends AutoCloseable {

  /** The row, or empty when absent. */
  Optional<StateEntry> get(StateKey key);

  /** Writes unconditionally and returns the new row (version = previous version + 1). */
  StateEntry put(StateKey key, byte[] value);

  /**
   * Writes only if the row's current version is {@code expectedVersion} (0 = absent).
   *
   * @return the new row, or empty if the version did not match (nothing was written)
   */
  Optional<StateEntry> compareAndSet(StateKey key, long expectedVersion, byte[] value);

  /** Deletes the row; returns whether it existed. */
  boolean delete(StateKey key);

  /**
   * Deletes the row only if its version is {@code expectedVersion} (>= 1).
   *
   * @return whether the row was deleted
   */
  boolean compareAndDelete(StateKey key, long expectedVersion);

  /**
   * One page of the rows of {@code scope} whose key starts with {@code keyPrefix} (e.g. {@code
   * StateKind.PROGRESS.prefix("orders/")}), in ascending key order.
   *
   * @param startAfter null for the first page, else {@link StatePage#nextStartAfter()} of the
   *     previous page
   * @param limit the most rows to return (>= 1)
   */
  StatePage scan(StateScope scope, String keyPrefix, String startAfter, int limit);

  /** All rows with the prefix, read page by page. */
  default List<StateEntry> scanAll(StateScope scope, String keyPrefix) {
    List<StateEntry> all = new ArrayList<>();
    String after = null;
    do {
      StatePage page = scan(scope, keyPrefix, after, 1000);
      all.addAll(page.entries());
      after = page.nextStartAfter().orElse(null);
    } while (after != null);
    return all;
  }

  /** The keys of the rows with the prefix, without their values (the names of secrets, say). */
  default List<StateKey> keys(StateScope scope, String keyPrefix) {
    return scanAll(scope, keyPrefix).stream().map(StateEntry::key).toList();
  }

  /** Where the rows live, for log lines and error messages, e.g. {@code rocksdb at /data/state}. */
  String describe();

  /** Releases this handle; other handles on the same storage stay usable. Idempotent. */
  @Override
  void close();
}
