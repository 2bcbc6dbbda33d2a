package io.skippr.connect.lake.partition;

import io.skippr.connect.lake.storage.PathEncoder;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * How rows are laid out in partition directories inside their table. Key names follow Confluent's
 * S3 sink so existing configurations carry over.
 */
public final class PartitioningConfig {
  public static final String GROUP = "Partitioning";

  public static final String PARTITIONER_CLASS = "partitioner.class";
  public static final String PARTITION_FIELD_NAME = "partition.field.name";
  public static final String PATH_FORMAT = "path.format";
  public static final String PARTITION_DURATION_MS = "partition.duration.ms";
  public static final String TIMESTAMP_EXTRACTOR = "timestamp.extractor";
  public static final String TIMESTAMP_FIELD = "timestamp.field";
  public static final String TIMEZONE = "timezone";
  public static final String LOCALE = "locale";

  /** The partitioners, by their {@code partitioner.class} short name. */
  public enum Kind {
    DEFAULT("default"),
    FIELD("field"),
    TIME("time"),
    FIELD_TIME("field+time");

    private final String configName;

    Kind(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }

    boolean usesFields() {
      return this == FIELD || this == FIELD_TIME;
    }

    boolean usesTime() {
      return this == TIME || this == FIELD_TIME;
    }
  }

  /** Where the time partitioner takes its instant from. */
  public enum TimestampSource {
    /** The Kafka record timestamp. */
    RECORD("Record"),
    /** A field of the row: a Timestamp/Date, epoch milliseconds, or an ISO-8601 string. */
    RECORD_FIELD("RecordField"),
    /** The compaction unit's wall-clock instant, recorded in its intent. */
    WALLCLOCK("Wallclock");

    private final String configName;

    TimestampSource(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }
  }

  /** Confluent partitioner classes accepted as aliases of our short names. */
  private static final Map<String, Kind> CONFLUENT_CLASSES =
      Map.of(
          "io.confluent.connect.storage.partitioner.DefaultPartitioner", Kind.DEFAULT,
          "io.confluent.connect.storage.partitioner.FieldPartitioner", Kind.FIELD,
          "io.confluent.connect.storage.partitioner.TimeBasedPartitioner", Kind.TIME);

  private final Kind kind;
  private final List<String> fieldNames;
  private final String pathFormat;
  private final long durationMs;
  private final TimestampSource timestampSource;
  private final String timestampField;
  private final ZoneId timezone;
  private final Locale locale;

  /**
   * Builds a configuration directly (tests, other config fragments); {@link #from} validates user
   * input the same way.
   *
   * @throws ConfigException when the combination is invalid
   */
  public PartitioningConfig(
      Kind kind,
      List<String> fieldNames,
      String pathFormat,
      long durationMs,
      TimestampSource timestampSource,
      String timestampField,
      ZoneId timezone,
      Locale locale) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.fieldNames = List.copyOf(fieldNames);
    this.pathFormat = Objects.requireNonNull(pathFormat, "pathFormat");
    this.durationMs = durationMs;
    this.timestampSource = Objects.requireNonNull(timestampSource, "timestampSource");
    this.timestampField = Objects.requireNonNull(timestampField, "timestampField");
    this.timezone = Objects.requireNonNull(timezone, "timezone");
    this.locale = Objects.requireNonNull(locale, "locale");
    checkCombination();
  }

  /** The default partitioner: one directory per Kafka partition. */
  public static PartitioningConfig defaults() {
    return new PartitioningConfig(
        Kind.DEFAULT,
        List.of(),
        "",
        -1,
        TimestampSource.RECORD,
        "timestamp",
        ZoneId.of("UTC"),
        Locale.ROOT);
  }

  public static ConfigDef define(ConfigDef def) {
    int order = 0;
    def.define(
            PARTITIONER_CLASS,
            Type.STRING,
            Kind.DEFAULT.configName(),
            PartitioningValidators.partitioner(),
            Importance.HIGH,
            "How rows are split into directories: 'default' (partition=<original Kafka"
                + " partition>), 'field' (one name=value directory per partition.field.name),"
                + " 'time' (path.format applied to a timestamp) or 'field+time' (field"
                + " directories, then time directories). Confluent's DefaultPartitioner,"
                + " FieldPartitioner and TimeBasedPartitioner class names are accepted too.",
            GROUP,
            ++order,
            Width.SHORT,
            "Partitioner")
        .define(
            PARTITION_FIELD_NAME,
            Type.LIST,
            "",
            PartitioningValidators.fieldNames(),
            Importance.MEDIUM,
            "Fields of the row to partition by, in directory order (field and field+time)."
                + " A dotted name reaches into nested structs (customer.country). A row without"
                + " the field is rejected; a null value goes to "
                + PathEncoder.NULL_VALUE
                + ".",
            GROUP,
            ++order,
            Width.LONG,
            "Partition fields")
        .define(
            PATH_FORMAT,
            Type.STRING,
            "",
            PartitioningValidators.pathFormat(),
            Importance.MEDIUM,
            "Directory layout of the time partitioner, in Joda-Time pattern syntax as in"
                + " Confluent's S3 sink: text in single quotes is literal, YYYY year, MM month,"
                + " dd day, HH hour, mm minute; '/' separates directories. Example:"
                + " 'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH. Required for time and field+time.",
            GROUP,
            ++order,
            Width.LONG,
            "Path format");
    return defineTime(def, order);
  }

  private static ConfigDef defineTime(ConfigDef def, int order) {
    return def.define(
            PARTITION_DURATION_MS,
            Type.LONG,
            -1L,
            ConfigDef.Range.atLeast(-1L),
            Importance.MEDIUM,
            "Length of a time partition in milliseconds: the timestamp is floored to a multiple"
                + " of it in the configured timezone before path.format is applied (3600000 for"
                + " hourly). -1 or 0: no flooring beyond what path.format shows.",
            GROUP,
            ++order,
            Width.SHORT,
            "Partition duration")
        .define(
            TIMESTAMP_EXTRACTOR,
            Type.STRING,
            TimestampSource.RECORD.configName(),
            PartitioningValidators.timestampSource(),
            Importance.MEDIUM,
            "Where the time partitioner's instant comes from: 'Record' (the Kafka record"
                + " timestamp), 'RecordField' (timestamp.field of the row: a Timestamp or Date,"
                + " epoch milliseconds or an ISO-8601 string) or 'Wallclock' (the time the"
                + " file's compaction unit was opened, recorded so a replay lands in the same"
                + " directories). A record without the timestamp is rejected.",
            GROUP,
            ++order,
            Width.SHORT,
            "Timestamp extractor")
        .define(
            TIMESTAMP_FIELD,
            Type.STRING,
            "timestamp",
            new ConfigDef.NonEmptyString(),
            Importance.MEDIUM,
            "The row field holding the timestamp when timestamp.extractor=RecordField; a dotted"
                + " name reaches into nested structs.",
            GROUP,
            ++order,
            Width.MEDIUM,
            "Timestamp field")
        .define(
            TIMEZONE,
            Type.STRING,
            "UTC",
            PartitioningValidators.timezone(),
            Importance.MEDIUM,
            "Time zone in which the time partitioner floors and formats timestamps, e.g. UTC or"
                + " Europe/Berlin.",
            GROUP,
            ++order,
            Width.SHORT,
            "Timezone")
        .define(
            LOCALE,
            Type.STRING,
            "",
            PartitioningValidators.locale(),
            Importance.LOW,
            "Locale (IETF BCP 47 tag, e.g. en-US) for text fields of path.format such as month"
                + " names. Empty: the root locale.",
            GROUP,
            ++order,
            Width.SHORT,
            "Locale");
  }

  /**
   * Reads the fragment's keys.
   *
   * @throws ConfigException when a value or the combination is invalid
   */
  public static PartitioningConfig from(AbstractConfig c) {
    return new PartitioningConfig(
        parseKind(c.getString(PARTITIONER_CLASS)),
        c.getList(PARTITION_FIELD_NAME).stream().map(String::trim).toList(),
        c.getString(PATH_FORMAT),
        c.getLong(PARTITION_DURATION_MS),
        parseTimestampSource(c.getString(TIMESTAMP_EXTRACTOR)),
        c.getString(TIMESTAMP_FIELD),
        ZoneId.of(c.getString(TIMEZONE)),
        parseLocale(c.getString(LOCALE)));
  }

  static Kind parseKind(String value) {
    String trimmed = value == null ? "" : value.trim();
    for (Kind kind : Kind.values()) {
      if (kind.configName.equalsIgnoreCase(trimmed)) {
        return kind;
      }
    }
    Kind confluent = CONFLUENT_CLASSES.get(trimmed);
    if (confluent == null) {
      throw new ConfigException(PARTITIONER_CLASS, value, "use default, field, time or field+time");
    }
    return confluent;
  }

  static TimestampSource parseTimestampSource(String value) {
    String trimmed = value == null ? "" : value.trim();
    for (TimestampSource source : TimestampSource.values()) {
      if (source.configName.equalsIgnoreCase(trimmed)) {
        return source;
      }
    }
    throw new ConfigException(TIMESTAMP_EXTRACTOR, value, "use Record, RecordField or Wallclock");
  }

  static Locale parseLocale(String value) {
    return value == null || value.isBlank() ? Locale.ROOT : Locale.forLanguageTag(value.trim());
  }

  private void checkCombination() {
    if (kind.usesFields() && fieldNames.isEmpty()) {
      throw new ConfigException(
          PARTITION_FIELD_NAME,
          "",
          "partitioner " + kind.configName() + " needs at least one field");
    }
    for (String name : fieldNames) {
      if (name.isEmpty() || name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
        throw new ConfigException(PARTITION_FIELD_NAME, name, "not a field name or dotted path");
      }
    }
    if (kind.usesTime()) {
      try {
        PathFormat.compile(pathFormat, locale);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(PATH_FORMAT, pathFormat, e.getMessage());
      }
    }
    if (timestampField.isBlank()) {
      throw new ConfigException(TIMESTAMP_FIELD, timestampField, "must not be empty");
    }
  }

  public Kind kind() {
    return kind;
  }

  public List<String> fieldNames() {
    return fieldNames;
  }

  public String pathFormat() {
    return pathFormat;
  }

  /** The partition length in milliseconds; 0 or less means no flooring. */
  public long durationMs() {
    return durationMs;
  }

  public TimestampSource timestampSource() {
    return timestampSource;
  }

  public String timestampField() {
    return timestampField;
  }

  public ZoneId timezone() {
    return timezone;
  }

  public Locale locale() {
    return locale;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitioningConfig other && toString().equals(other.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /** Every setting, in a stable form (usable in a configuration fingerprint). */
  @Override
  public String toString() {
    return PARTITIONER_CLASS
        + "="
        + kind.configName()
        + ", "
        + PARTITION_FIELD_NAME
        + "="
        + String.join(",", fieldNames)
        + ", "
        + PATH_FORMAT
        + "="
        + pathFormat
        + ", "
        + PARTITION_DURATION_MS
        + "="
        + durationMs
        + ", "
        + TIMESTAMP_EXTRACTOR
        + "="
        + timestampSource.configName()
        + ", "
        + TIMESTAMP_FIELD
        + "="
        + timestampField
        + ", "
        + TIMEZONE
        + "="
        + timezone.getId()
        + ", "
        + LOCALE
        + "="
        + locale.toLanguageTag();
  }
}
