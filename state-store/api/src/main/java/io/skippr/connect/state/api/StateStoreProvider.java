package io.skippr.connect.state.api;

import java.util.Map;
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

  /**
   * Problems of combinations of this backend's keys in a connector's raw config, by the key to
   * change; empty when they are sound. A connector's {@code validate()} reports them (see {@link
   * StateStoreConfig#problems}) whatever {@code store.type} says, since the type may come from the
   * environment of whichever worker runs the task.
   */
  default Map<String, String> problems(Map<String, String> props) {
    return Map.of();
  }

  /** Opens a store; fails with a {@link StateStoreException} whose message says how to fix it. */
  StateStore open(StateStoreSettings settings);
}
