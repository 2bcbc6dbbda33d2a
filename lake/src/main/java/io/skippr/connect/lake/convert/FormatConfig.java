package io.skippr.connect.lake.convert;

import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** How records become rows and rows become Parquet files: codec, row groups, extra columns. */
public final class FormatConfig {
  public static final String GROUP = "Format";

  public static final String PARQUET_CODEC = "parquet.codec";
  public static final String PARQUET_ROW_GROUP_BYTES = "parquet.row.group.bytes";
  public static final String INCLUDE_KAFKA_METADATA = "include.kafka.metadata";
  public static final String INCLUDE_KEY = "include.key";
  public static final String INCLUDE_HEADERS = "include.headers";
  public static final String BEHAVIOR_ON_NULL_VALUES = "behavior.on.null.values";
  public static final String TABLE_NAME_FORMAT = "table.name.format";

  public static final long MIN_ROW_GROUP_BYTES = 1L << 20;
  public static final long MAX_ROW_GROUP_BYTES = 512L << 20;
  public static final long DEFAULT_ROW_GROUP_BYTES = 32L << 20;
  public static final String TOPIC_PLACEHOLDER = "${topic}";

  /** Parquet compression codecs; the name is also the file extension's first part. */
  public enum Codec {
    SNAPPY,
    ZSTD,
    GZIP,
    NONE;

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What a record with a null value (a tombstone) becomes. */
  public enum NullValues {
    IGNORE,
    FAIL,
    WRITE;

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Codec codec;
  private final long rowGroupBytes;
  private final boolean includeKafkaMetadata;
  private final boolean includeKey;
  private final NullValues nullValues;
  private final String tableNameFormat;
  private final List<String> tombstoneKeyFields;
  private boolean includeHeaders;

  public FormatConfig(
      Codec codec,
      long rowGroupBytes,
      boolean includeKafkaMetadata,
      boolean includeKey,
      NullValues nullValues,
      String tableNameFormat) {
    this(
        codec,
        rowGroupBytes,
        includeKafkaMetadata,
        includeKey,
        nullValues,
        tableNameFormat,
        List.of());
  }

  private FormatConfig(
      Codec codec,
      long rowGroupBytes,
      boolean includeKafkaMetadata,
      boolean includeKey,
      NullValues nullValues,
      String tableNameFormat,
      List<String> tombstoneKeyFields) {
    this.codec = codec;
    this.rowGroupBytes = rowGroupBytes;
    this.includeKafkaMetadata = includeKafkaMetadata;
    this.includeKey = includeKey;
    this.nullValues = nullValues;
    this.tableNameFormat = tableNameFormat;
    this.tombstoneKeyFields = List.copyOf(tombstoneKeyFields);
  }

  /**
   * This format for a table of the current state per key ({@code write.policy=merge_by_key}): a
   * tombstone deletes its key whatever {@code behavior.on.null.values} says, so it is always
   * written as a delete row ({@code __deleted=true}), carrying {@code keyFields} taken from its
   * record key.
   *
   * @param keyFields the value fields forming the key ({@code merge.key.fields}); empty when the
   *     key is the record key ({@code __key})
   */
  public FormatConfig deletingByKey(List<String> keyFields) {
    return new FormatConfig(
            codec,
            rowGroupBytes,
            includeKafkaMetadata,
            includeKey,
            NullValues.WRITE,
            tableNameFormat,
            keyFields)
        .includingHeaders(includeHeaders);
  }

  /** This format with or without the {@code __headers} column. */
  public FormatConfig includingHeaders(boolean on) {
    FormatConfig copy =
        new FormatConfig(
            codec,
            rowGroupBytes,
            includeKafkaMetadata,
            includeKey,
            nullValues,
            tableNameFormat,
            tombstoneKeyFields);
    copy.includeHeaders = on;
    return copy;
  }

  /** The defaults: snappy, 32 MiB row groups, no extra columns, tombstones ignored. */
  public static FormatConfig defaults() {
    return new FormatConfig(
        Codec.SNAPPY, DEFAULT_ROW_GROUP_BYTES, false, false, NullValues.IGNORE, TOPIC_PLACEHOLDER);
  }

  public static ConfigDef define(ConfigDef def) {
    int order = 0;
    def.define(
            PARQUET_CODEC,
            Type.STRING,
            Codec.SNAPPY.configName(),
            enumValidator(Codec.values()),
            Importance.MEDIUM,
            "Parquet compression codec: snappy, zstd, gzip or none.",
            GROUP,
            ++order,
            ConfigDef.Width.SHORT,
            "Parquet codec")
        .define(
            PARQUET_ROW_GROUP_BYTES,
            Type.LONG,
            DEFAULT_ROW_GROUP_BYTES,
            ConfigDef.Range.between(MIN_ROW_GROUP_BYTES, MAX_ROW_GROUP_BYTES),
            Importance.LOW,
            "Target size of a Parquet row group in bytes. The writer holds one row group in memory"
                + " while writing a file, so this also bounds the writer's memory.",
            GROUP,
            ++order,
            ConfigDef.Width.SHORT,
            "Row group bytes")
        .define(
            INCLUDE_KAFKA_METADATA,
            Type.BOOLEAN,
            false,
            null,
            Importance.MEDIUM,
            "Add the columns __topic, __partition, __offset (the original Kafka position, before"
                + " any transform) and __timestamp (the record timestamp) to every row.",
            GROUP,
            ++order,
            ConfigDef.Width.SHORT,
            "Include Kafka metadata");
    return defineRowShape(def, order);
  }

  private static ConfigDef defineRowShape(ConfigDef def, int order) {
    return def.define(
            INCLUDE_KEY,
            Type.BOOLEAN,
            false,
            null,
            Importance.MEDIUM,
            "Add the record key as column __key, typed from the key schema, or inferred when the"
                + " key has no schema.",
            GROUP,
            ++order,
            ConfigDef.Width.SHORT,
            "Include key")
        .define(
            INCLUDE_HEADERS,
            Type.BOOLEAN,
            false,
            null,
            Importance.MEDIUM,
            "Add the record headers as column __headers: a list of {key, value} in the record's"
                + " order, duplicates kept, each value as a string as the header converter"
                + " renders it (null for a null value). Confluent's S3 sink calls this"
                + " store.kafka.headers and writes the headers to separate files.",
            GROUP,
            ++order,
            ConfigDef.Width.SHORT,
            "Include headers")
        .define(
            BEHAVIOR_ON_NULL_VALUES,
            Type.STRING,
            NullValues.IGNORE.configName(),
            enumValidator(NullValues.values()),
            Importance.MEDIUM,
            "What to do with a record whose value is null (a tombstone): 'ignore' skips it,"
                + " 'fail' rejects it (the task fails unless errors are tolerated, then it goes to"
                + " the dead letter queue), 'write' writes a row holding the key and"
                + " __deleted=true; in that mode every row has __deleted (unless the record"
                + " brings its own) and value columns are optional. Under"
                + " write.policy=merge_by_key a tombstone deletes its key whatever this says: it"
                + " is always written, as with 'write'.",
            GROUP,
            ++order,
            ConfigDef.Width.SHORT,
            "Behavior on null values")
        .define(
            TABLE_NAME_FORMAT,
            Type.STRING,
            TOPIC_PLACEHOLDER,
            new TableNameFormatValidator(),
            Importance.MEDIUM,
            "Name of the table (directory under topics.dir) a record goes to. ${topic} is"
                + " replaced by the record's topic after transforms. Characters other than"
                + " letters, digits, '.', '_' and '-' (and a leading '.') are percent-encoded, so"
                + " a name never forms '/', '..' or NUL; a name over "
                + TableNames.MAX_LENGTH
                + " bytes keeps a prefix and a hash of the whole name.",
            GROUP,
            ++order,
            ConfigDef.Width.MEDIUM,
            "Table name format");
  }

  public static FormatConfig from(AbstractConfig c) {
    return new FormatConfig(
            Codec.valueOf(c.getString(PARQUET_CODEC).trim().toUpperCase(Locale.ROOT)),
            c.getLong(PARQUET_ROW_GROUP_BYTES),
            c.getBoolean(INCLUDE_KAFKA_METADATA),
            c.getBoolean(INCLUDE_KEY),
            NullValues.valueOf(
                c.getString(BEHAVIOR_ON_NULL_VALUES).trim().toUpperCase(Locale.ROOT)),
            c.getString(TABLE_NAME_FORMAT))
        .includingHeaders(c.getBoolean(INCLUDE_HEADERS));
  }

  public Codec codec() {
    return codec;
  }

  public long rowGroupBytes() {
    return rowGroupBytes;
  }

  public boolean includeKafkaMetadata() {
    return includeKafkaMetadata;
  }

  public boolean includeKey() {
    return includeKey;
  }

  public boolean includeHeaders() {
    return includeHeaders;
  }

  public NullValues nullValues() {
    return nullValues;
  }

  public String tableNameFormat() {
    return tableNameFormat;
  }

  /** The value fields a tombstone takes from its record key; empty unless deleting by key. */
  public List<String> tombstoneKeyFields() {
    return tombstoneKeyFields;
  }

  private static ConfigDef.Validator enumValidator(Enum<?>[] values) {
    String[] names = new String[values.length];
    for (int i = 0; i < values.length; i++) {
      names[i] = values[i].name().toLowerCase(Locale.ROOT);
    }
    return ConfigDef.CaseInsensitiveValidString.in(names);
  }

  /** Rejects formats that can never yield a usable name. */
  static final class TableNameFormatValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String format = (String) value;
      if (format == null || format.isBlank()) {
        throw new ConfigException(name, value, "must not be empty");
      }
    }

    @Override
    public String toString() {
      return "a non-empty name, usually containing " + TOPIC_PLACEHOLDER;
    }
  }
}
