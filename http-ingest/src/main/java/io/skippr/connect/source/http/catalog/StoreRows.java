package io.skippr.connect.source.http.catalog;

import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreException;
import java.util.Optional;

/**
 * Rows in the state store as {@code catalog#…} rows of the pipeline's scope: shared by every task
 * (and worker) that opens the same store, kept across restarts.
 */
final class StoreRows implements CatalogRows {

  private final StateStore store;
  private final StateScope scope;

  StoreRows(StateStore store, StateScope scope) {
    this.store = store;
    this.scope = scope;
  }

  @Override
  public Row get(String id) {
    try {
      Optional<StateEntry> entry = store.get(key(id));
      return entry.map(e -> new Row(e.version(), e.value())).orElse(Row.ABSENT);
    } catch (StateStoreException e) {
      throw failure("read", id, e);
    }
  }

  @Override
  public boolean compareAndSet(String id, long expectedVersion, byte[] value) {
    try {
      return store.compareAndSet(key(id), expectedVersion, value).isPresent();
    } catch (StateStoreException e) {
      throw failure("write", id, e);
    }
  }

  private StateKey key(String id) {
    return StateKey.of(scope, StateKind.CATALOG, id);
  }

  private CatalogException failure(String what, String id, RuntimeException e) {
    return new CatalogException(
        "could not " + what + " catalog row " + id + " in " + store.describe() + ": " + e, e);
  }

  @Override
  public String describe() {
    return store.describe() + " (scope " + scope + ")";
  }

  @Override
  public void close() {
    store.close();
  }
}
