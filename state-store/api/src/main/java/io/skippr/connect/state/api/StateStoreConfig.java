package io.skippr.connect.state.api;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The {@code store.*} settings a connector adds to its own {@link ConfigDef}. Unset values fall
 * back to the environment, {@code skippr.yml} and defaults (see {@link StateStoreSettings}).
 */
public final class StateStoreConfig {
  public static final String GROUP = "State store";

  public static final String STORE_TYPE = "store.type";
  public static final String STORE_TYPE_DOC =
      "Where resume state lives: rocksdb (alias sled; local directory, one process) or dynamodb "
          + "(a table shared by many workers). Unset: SKIPPR_STORE_TYPE, then dynamodb if "
          + "WAL_STORAGE=clustered, then skippr.store.type in skippr.yml, then rocksdb.";

  public static final String STORE_NAME = "store.name";
  public static final String STORE_NAME_DOC =
      "DynamoDB table name (required for dynamodb). Unset: SKIPPR_STORE_NAME, then "
          + "skippr.store.name in skippr.yml.";

  public static final String STORE_ENCRYPTION = "store.encryption";
  public static final String STORE_ENCRYPTION_DOC =
      "on: secrets (secret#… rows) are encrypted with AES-GCM-256 using SKIPPR_STATE_KEY "
          + "(base64, 32 bytes) and refused without it. off: secrets are stored in plain text.";

  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z0-9_.-]{3,255}");

  private StateStoreConfig() {}

  /**
   * Adds the {@code store.*} keys to {@code def} and returns it: the common ones, then each
   * installed backend's own ({@link StateStoreProvider#configDef}).
   */
  public static ConfigDef define(ConfigDef def) {
    defineCommon(def);
    for (StateStoreProvider provider : StateStores.providers()) {
      for (ConfigDef.ConfigKey key : provider.configDef().configKeys().values()) {
        if (!def.names().contains(key.name)) {
          def.define(key);
        }
      }
    }
    return def;
  }

  private static void defineCommon(ConfigDef def) {
    int order = 0;
    def.define(
            STORE_TYPE,
            Type.STRING,
            null,
            ConfigDef.LambdaValidator.with(
                StateStoreConfig::validateType,
                () -> "unset or one of " + StateStores.knownTypes()),
            Importance.HIGH,
            STORE_TYPE_DOC,
            GROUP,
            ++order,
            Width.SHORT,
            "Store type")
        .define(
            STORE_NAME,
            Type.STRING,
            null,
            optional(StateStoreConfig::validateName),
            Importance.HIGH,
            STORE_NAME_DOC,
            GROUP,
            ++order,
            Width.MEDIUM,
            "Store name")
        .define(
            STORE_ENCRYPTION,
            Type.STRING,
            "on",
            ConfigDef.CaseInsensitiveValidString.in("on", "off"),
            Importance.MEDIUM,
            STORE_ENCRYPTION_DOC,
            GROUP,
            ++order,
            Width.SHORT,
            "Secret encryption");
  }

  /**
   * Problems of combinations of the installed backends' keys ({@link StateStoreProvider#problems}),
   * by the key to change: what a connector's {@code validate()} adds to its own cross-key checks.
   */
  public static Map<String, String> problems(Map<String, String> props) {
    Map<String, String> problems = new LinkedHashMap<>();
    for (StateStoreProvider provider : StateStores.providers()) {
      provider.problems(props).forEach(problems::putIfAbsent);
    }
    return problems;
  }

  /** Resolves the store settings of a parsed config against the process environment. */
  public static StateStoreSettings from(AbstractConfig config) {
    return from(config, StoreEnvironment.system());
  }

  /** Resolves the store settings of a parsed config against {@code environment}. */
  public static StateStoreSettings from(AbstractConfig config, StoreEnvironment environment) {
    Map<String, String> explicit = new HashMap<>();
    for (String key : define(new ConfigDef()).names()) {
      Object value = config.values().get(key);
      if (value != null) {
        explicit.put(key, value.toString());
      }
    }
    return StateStoreSettings.resolve(explicit, environment);
  }

  /** Checks a set value; see {@link #optional}. */
  public interface Check {
    void check(String key, String value);
  }

  /** A validator of an optional string: unset, or not blank and passing {@code check}. */
  public static ConfigDef.Validator optional(Check check) {
    return ConfigDef.LambdaValidator.with(
        (key, value) -> {
          if (value != null) {
            String text = value.toString();
            if (text.isBlank()) {
              throw new ConfigException(key, value, "must not be blank; leave it unset instead");
            }
            check.check(key, text.strip());
          }
        },
        () -> "unset or a non-blank string");
  }

  private static void validateType(String key, Object value) {
    if (value != null
        && !StateStores.knownTypes().contains(value.toString().strip().toLowerCase(Locale.ROOT))) {
      throw new ConfigException(key, value, "known types are " + StateStores.knownTypes());
    }
  }

  private static void validateName(String key, String value) {
    if (!TABLE_NAME.matcher(value).matches()) {
      throw new ConfigException(
          key, value, "a table name has 3-255 characters of A-Z, a-z, 0-9, '_', '-', '.'");
    }
  }
}
