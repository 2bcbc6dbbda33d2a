package io.skippr.connect.state.api;

import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;

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

  /**
   * The keys of this backend ({@code store.<type>.*}), each with its doc, default and validator;
   * every connector that mirrors state adds them to its own configuration (see {@link
   * StateStoreConfig#define}) and reads them through {@link StateStoreSettings#configured}.
   */
  default ConfigDef configDef() {
    return new ConfigDef();
  }

  /** Opens a store; fails with a {@link StateStoreException} whose message says how to fix it. */
  StateStore open(StateStoreSettings settings);
}
