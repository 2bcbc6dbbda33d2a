package io.skippr.connect.state.api;

import io.skippr.connect.common.SkipprFile;
import io.skippr.connect.state.api.StateStoreSettings.Origin;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Applies the settings precedence of {@link StateStoreSettings#resolve}. */
final class SettingsResolver {
  static final String ENV_STORE_TYPE = "SKIPPR_STORE_TYPE";
  static final String ENV_STORE_NAME = "SKIPPR_STORE_NAME";
  static final String ENV_WAL_STORAGE = "WAL_STORAGE";
  static final String YAML_STORE_TYPE = "skippr.store.type";
  static final String YAML_STORE_NAME = "skippr.store.name";
  static final String DEFAULT_TYPE = "rocksdb";

  private final Map<String, String> config;
  private final StoreEnvironment env;
  private Map<String, String> yaml;
  private String yamlSource;

  SettingsResolver(Map<String, String> connectorConfig, StoreEnvironment env) {
    this.config = Map.copyOf(connectorConfig);
    this.env = env;
  }

  StateStoreSettings resolve() {
    return new StateStoreSettings(type(), name(), config, encryption(), env);
  }

  private Origin<String> type() {
    Optional<Origin<String>> fromConfig = fromConfig(StateStoreConfig.STORE_TYPE);
    if (fromConfig.isPresent()) {
      return lower(fromConfig.get());
    }
    Optional<String> fromEnv = env.variable(ENV_STORE_TYPE);
    if (fromEnv.isPresent()) {
      return lower(new Origin<>(fromEnv.get(), ENV_STORE_TYPE));
    }
    if (env.variable(ENV_WAL_STORAGE).filter("clustered"::equalsIgnoreCase).isPresent()) {
      return new Origin<>("dynamodb", ENV_WAL_STORAGE + "=clustered");
    }
    return fromYaml(YAML_STORE_TYPE)
        .map(SettingsResolver::lower)
        .orElse(new Origin<>(DEFAULT_TYPE, "default"));
  }

  private Optional<Origin<String>> name() {
    Optional<Origin<String>> fromConfig = fromConfig(StateStoreConfig.STORE_NAME);
    if (fromConfig.isPresent()) {
      return fromConfig;
    }
    Optional<String> fromEnv = env.variable(ENV_STORE_NAME);
    if (fromEnv.isPresent()) {
      return Optional.of(new Origin<>(fromEnv.get(), ENV_STORE_NAME));
    }
    return fromYaml(YAML_STORE_NAME);
  }

  private boolean encryption() {
    String value = configured(StateStoreConfig.STORE_ENCRYPTION).orElse("on");
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "on" -> true;
      case "off" -> false;
      default ->
          throw new StateStoreException(
              StateStoreConfig.STORE_ENCRYPTION + "=" + value + " is not valid: use on or off");
    };
  }

  private Optional<String> configured(String key) {
    return Optional.ofNullable(config.get(key)).map(String::strip).filter(v -> !v.isEmpty());
  }

  private Optional<Origin<String>> fromConfig(String key) {
    return configured(key).map(v -> new Origin<>(v, "connector config " + key));
  }

  private Optional<Origin<String>> fromYaml(String key) {
    if (yaml == null) {
      loadYaml();
    }
    return Optional.ofNullable(yaml.get(key))
        .filter(v -> !v.isBlank())
        .map(v -> new Origin<>(v.strip(), key + " in " + yamlSource));
  }

  private void loadYaml() {
    Optional<String> explicit = env.variable(SkipprFile.CONFIG_ENV);
    Path file =
        SkipprFile.locate(
            null,
            explicit.map(name -> Map.of(SkipprFile.CONFIG_ENV, name)).orElse(Map.of()),
            env.workingDirectory());
    yamlSource = file.toString();
    Optional<SkipprFile> read;
    try {
      read = SkipprFile.readIfPresent(file);
    } catch (SkipprFile.SkipprFileException e) {
      throw new StateStoreException(e.getMessage(), e);
    }
    if (read.isEmpty() && explicit.isPresent()) {
      throw new StateStoreException(
          SkipprFile.CONFIG_ENV + " points to " + file + ", which is not a readable file");
    }
    yaml = read.map(SkipprFile::scalars).orElse(Map.of());
  }

  private static Origin<String> lower(Origin<String> origin) {
    return new Origin<>(origin.value().toLowerCase(Locale.ROOT), origin.source());
  }
}
