package io.skippr.connect.state.api;

import java.util.Set;

/**
 * A backend, found with {@link java.util.ServiceLoader} (list implementations in {@code
 * META-INF/services/io.skippr.connect.state.api.StateStoreProvider}).
 */
public interface StateStoreProvider {

  /** The canonical type name used in {@code store.type}, e.g. {@code rocksdb}. */
  String type();

  /** Other names accepted for this type, e.g. {@code sled} for {@code rocksdb}. */
  default Set<String> aliases() {
    return Set.of();
  }

  /** Opens a store; fails with a {@link StateStoreException} whose message says how to fix it. */
  StateStore open(StateStoreSettings settings);
}
