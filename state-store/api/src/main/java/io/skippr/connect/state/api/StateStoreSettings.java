package io.skippr.connect.state.api;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The resolved settings of one store: every value already chosen from connector config,
 * environment, {@code skippr.yml} or default (see {@link #resolve}), with where it came from.
 */
public final class StateStoreSettings {
  private final Origin<String> type;
  private final Optional<Origin<String>> name;
  private final Map<String, String> config;
  private final boolean encryption;
  private final StoreEnvironment environment;

  /** A value and the place it was read from, e.g. {@code SKIPPR_STORE_TYPE}. */
  public record Origin<T>(T value, String source) {
    public Origin {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(source, "source");
    }
  }

  StateStoreSettings(
      Origin<String> type,
      Optional<Origin<String>> name,
      Map<String, String> config,
      boolean encryption,
      StoreEnvironment environment) {
    this.type = type;
    this.name = name;
    this.config = Map.copyOf(config);
    this.encryption = encryption;
    this.environment = environment;
  }

  /**
   * Resolves settings with this precedence, per setting: connector config ({@code store.*}),
   * environment ({@code SKIPPR_STORE_TYPE}, {@code SKIPPR_STORE_NAME}, {@code DATA_DIR}; {@code
   * WAL_STORAGE=clustered} without a type means dynamodb), {@code skippr.yml} ({@code
   * skippr.store.type}, {@code skippr.store.name}; in the working directory or at {@code
   * $SKIPPR_CONFIG}), then the default (rocksdb). A backend's own keys ({@code store.rocksdb.*},
   * {@code store.dynamodb.*}) are its provider's to read, through {@link #configured}.
   */
  public static StateStoreSettings resolve(
      Map<String, String> connectorConfig, StoreEnvironment environment) {
    return new SettingsResolver(connectorConfig, environment).resolve();
  }

  /** The requested type as written (lower case), e.g. {@code sled}; see {@link StateStores}. */
  public Origin<String> type() {
    return type;
  }

  public Optional<Origin<String>> name() {
    return name;
  }

  /** The store name, or a one-line error saying where to set it. */
  public String requireName() {
    return name.map(Origin::value)
        .orElseThrow(
            () ->
                new StateStoreException(
                    "store.type="
                        + type.value()
                        + " (from "
                        + type.source()
                        + ") needs a table name: set store.name in the connector config, "
                        + "SKIPPR_STORE_NAME in the environment, or skippr.store.name in "
                        + "skippr.yml"));
  }

  /** A connector config value, stripped; empty when unset or blank. */
  public Optional<String> configured(String key) {
    return Optional.ofNullable(config.get(key)).map(String::strip).filter(v -> !v.isEmpty());
  }

  /** Whether secrets must be encrypted ({@code store.encryption=on}, the default). */
  public boolean encryption() {
    return encryption;
  }

  public StoreEnvironment environment() {
    return environment;
  }

  StateStoreSettings withType(Origin<String> newType) {
    return new StateStoreSettings(newType, name, config, encryption, environment);
  }

  @Override
  public String toString() {
    return "StateStoreSettings[type="
        + type.value()
        + " ("
        + type.source()
        + "), name="
        + name.map(Origin::value).orElse("-")
        + ", encryption="
        + (encryption ? "on" : "off")
        + "]";
  }
}
