package io.skippr.connect.json;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.connect.storage.ConverterConfig;

/**
 * The keys of {@link StreamingJsonConverter}: those of Kafka's {@code JsonConverterConfig}, with
 * the same names, types, defaults and validators, so a configuration written for Kafka's converter
 * works unchanged. Defined here rather than borrowed from the worker's {@code connect-json} so the
 * plugin behaves the same on every worker version.
 */
public final class StreamingJsonConverterConfig extends ConverterConfig {
  public static final String SCHEMAS_ENABLE_CONFIG = "schemas.enable";
  public static final boolean SCHEMAS_ENABLE_DEFAULT = true;
  private static final String SCHEMAS_ENABLE_DOC =
      "Whether records carry their schema: written as an envelope {\"schema\": ..., \"payload\":"
          + " ...} and read from one. With false, records are plain JSON and values are read"
          + " without a schema.";

  public static final String SCHEMAS_CACHE_SIZE_CONFIG = "schemas.cache.size";
  public static final int SCHEMAS_CACHE_SIZE_DEFAULT = 1000;
  private static final String SCHEMAS_CACHE_SIZE_DOC =
      "How many distinct schemas this converter keeps ready in each direction: envelope schemas by"
          + " their bytes when reading, serialized schemas when writing.";

  public static final String SCHEMA_CONTENT_CONFIG = "schema.content";
  private static final String SCHEMA_CONTENT_DOC =
      "A schema in the envelope's JSON form used for every record read, which is then plain JSON"
          + " without an envelope. Applies only with schemas.enable=true and only when reading"
          + " (sink connectors); records written still carry an envelope.";

  public static final String DECIMAL_FORMAT_CONFIG = "decimal.format";
  public static final String DECIMAL_FORMAT_DEFAULT = DecimalFormat.BASE64.name();
  private static final String DECIMAL_FORMAT_DOC =
      "How decimals are written (case insensitive): BASE64, a string with the base64 of the"
          + " unscaled value, or NUMERIC, a JSON number. Both forms are read whatever this says.";

  public static final String REPLACE_NULL_WITH_DEFAULT_CONFIG = "replace.null.with.default";
  public static final boolean REPLACE_NULL_WITH_DEFAULT_DEFAULT = true;
  private static final String REPLACE_NULL_WITH_DEFAULT_DOC =
      "Whether a null or missing value whose schema has a default is replaced by that default, in"
          + " both directions. With false the null is kept.";

  public static final ConfigDef CONFIG_DEF = configDef();

  private final boolean schemasEnabled;
  private final int schemaCacheSize;
  private final DecimalFormat decimalFormat;
  private final boolean replaceNullWithDefault;
  private final byte[] schemaContent;

  public StreamingJsonConverterConfig(Map<String, ?> props) {
    super(CONFIG_DEF, props);
    schemasEnabled = getBoolean(SCHEMAS_ENABLE_CONFIG);
    schemaCacheSize = getInt(SCHEMAS_CACHE_SIZE_CONFIG);
    decimalFormat =
        DecimalFormat.valueOf(getString(DECIMAL_FORMAT_CONFIG).toUpperCase(Locale.ROOT));
    replaceNullWithDefault = getBoolean(REPLACE_NULL_WITH_DEFAULT_CONFIG);
    String content = getString(SCHEMA_CONTENT_CONFIG);
    schemaContent =
        content == null || content.isEmpty() ? null : content.getBytes(StandardCharsets.UTF_8);
  }

  private static ConfigDef configDef() {
    String schemas = "Schemas";
    String serialization = "Serialization";
    return ConverterConfig.newConfigDef()
        .define(
            SCHEMAS_ENABLE_CONFIG,
            Type.BOOLEAN,
            SCHEMAS_ENABLE_DEFAULT,
            Importance.HIGH,
            SCHEMAS_ENABLE_DOC,
            schemas,
            0,
            Width.MEDIUM,
            "Enable Schemas")
        .define(
            SCHEMAS_CACHE_SIZE_CONFIG,
            Type.INT,
            SCHEMAS_CACHE_SIZE_DEFAULT,
            Importance.HIGH,
            SCHEMAS_CACHE_SIZE_DOC,
            schemas,
            1,
            Width.MEDIUM,
            "Schema Cache Size")
        .define(
            SCHEMA_CONTENT_CONFIG,
            Type.STRING,
            null,
            Importance.HIGH,
            SCHEMA_CONTENT_DOC,
            schemas,
            2,
            Width.MEDIUM,
            "Schema Content")
        .define(
            DECIMAL_FORMAT_CONFIG,
            Type.STRING,
            DECIMAL_FORMAT_DEFAULT,
            ConfigDef.CaseInsensitiveValidString.in(
                DecimalFormat.BASE64.name(), DecimalFormat.NUMERIC.name()),
            Importance.LOW,
            DECIMAL_FORMAT_DOC,
            serialization,
            0,
            Width.MEDIUM,
            "Decimal Format")
        .define(
            REPLACE_NULL_WITH_DEFAULT_CONFIG,
            Type.BOOLEAN,
            REPLACE_NULL_WITH_DEFAULT_DEFAULT,
            Importance.LOW,
            REPLACE_NULL_WITH_DEFAULT_DOC,
            serialization,
            1,
            Width.MEDIUM,
            "Replace null with default");
  }

  public boolean schemasEnabled() {
    return schemasEnabled;
  }

  public int schemaCacheSize() {
    return schemaCacheSize;
  }

  public DecimalFormat decimalFormat() {
    return decimalFormat;
  }

  public boolean replaceNullWithDefault() {
    return replaceNullWithDefault;
  }

  /** The bytes of {@code schema.content}, or null when it is not set (or empty). */
  public byte[] schemaContent() {
    return schemaContent == null ? null : schemaContent.clone();
  }
}
