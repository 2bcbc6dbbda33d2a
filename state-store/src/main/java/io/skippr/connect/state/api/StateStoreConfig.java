package io.skippr.connect.state.api;

import java.util.HashMap;
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

  public static final String STORE_ROCKSDB_PATH = "store.rocksdb.path";
  public static final String STORE_ROCKSDB_PATH_DOC =
      "RocksDB directory. Unset: ${DATA_DIR}/state, else ./data/state. One process per directory.";

  public static final String STORE_DYNAMODB_ENDPOINT = "store.dynamodb.endpoint";
  public static final String STORE_DYNAMODB_ENDPOINT_DOC =
      "DynamoDB endpoint URL for local or compatible servers, e.g. http://127.0.0.1:4567. "
          + "Unset: the AWS endpoint of the region.";

  public static final String STORE_DYNAMODB_REGION = "store.dynamodb.region";
  public static final String STORE_DYNAMODB_REGION_DOC =
      "AWS region of the table. Unset: the AWS default chain (AWS_REGION, profile), or us-east-1 "
          + "with a local endpoint.";

  public static final String STORE_DYNAMODB_CREATE_TABLE = "store.dynamodb.create.table";
  public static final String STORE_DYNAMODB_CREATE_TABLE_DOC =
      "Create the DynamoDB table (on-demand billing) if it is missing, and wait until it is ACTIVE.";

  public static final String STORE_ENCRYPTION = "store.encryption";
  public static final String STORE_ENCRYPTION_DOC =
      "on: secrets (secret#… rows) are encrypted with AES-GCM-256 using SKIPPR_STATE_KEY "
          + "(base64, 32 bytes) and refused without it. off: secrets are stored in plain text.";

  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z0-9_.-]{3,255}");

  private StateStoreConfig() {}

  /** Adds the {@code store.*} keys to {@code def} and returns it. */
  public static ConfigDef define(ConfigDef def) {
    return defineDynamoDb(defineCommon(def));
  }

  private static ConfigDef defineCommon(ConfigDef def) {
    int order = 0;
    return def.define(
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
            STORE_ROCKSDB_PATH,
            Type.STRING,
            null,
            optional((k, v) -> {}),
            Importance.MEDIUM,
            STORE_ROCKSDB_PATH_DOC,
            GROUP,
            ++order,
            Width.LONG,
            "RocksDB directory")
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

  private static ConfigDef defineDynamoDb(ConfigDef def) {
    int order = 10;
    return def.define(
            STORE_DYNAMODB_ENDPOINT,
            Type.STRING,
            null,
            optional(StateStoreConfig::validateEndpoint),
            Importance.LOW,
            STORE_DYNAMODB_ENDPOINT_DOC,
            GROUP,
            ++order,
            Width.LONG,
            "DynamoDB endpoint")
        .define(
            STORE_DYNAMODB_REGION,
            Type.STRING,
            null,
            optional((k, v) -> {}),
            Importance.LOW,
            STORE_DYNAMODB_REGION_DOC,
            GROUP,
            ++order,
            Width.SHORT,
            "DynamoDB region")
        .define(
            STORE_DYNAMODB_CREATE_TABLE,
            Type.BOOLEAN,
            false,
            null,
            Importance.LOW,
            STORE_DYNAMODB_CREATE_TABLE_DOC,
            GROUP,
            ++order,
            Width.SHORT,
            "Create table");
  }

  /** Resolves the store settings of a parsed config against the process environment. */
  public static StateStoreSettings from(AbstractConfig config) {
    return from(config, StoreEnvironment.system());
  }

  /** Resolves the store settings of a parsed config against {@code environment}. */
  public static StateStoreSettings from(AbstractConfig config, StoreEnvironment environment) {
    Map<String, String> explicit = new HashMap<>();
    for (String key :
        new String[] {
          STORE_TYPE,
          STORE_NAME,
          STORE_ROCKSDB_PATH,
          STORE_DYNAMODB_ENDPOINT,
          STORE_DYNAMODB_REGION,
          STORE_DYNAMODB_CREATE_TABLE,
          STORE_ENCRYPTION
        }) {
      Object value = config.values().get(key);
      if (value != null) {
        explicit.put(key, value.toString());
      }
    }
    return StateStoreSettings.resolve(explicit, environment);
  }

  private interface Check {
    void check(String key, String value);
  }

  private static ConfigDef.Validator optional(Check check) {
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

  private static void validateEndpoint(String key, String value) {
    try {
      SettingsResolver.parseEndpoint(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, value, e.getMessage());
    }
  }
}
