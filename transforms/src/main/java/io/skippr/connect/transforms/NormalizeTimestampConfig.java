package io.skippr.connect.transforms;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** The settings of {@link NormalizeTimestamp}. */
public final class NormalizeTimestampConfig {
  public static final String FIELDS = "fields";
  public static final String FORMATS = "formats";
  public static final String TIMEZONE = "timezone";
  public static final String EPOCH_UNIT = "epoch.unit";

  /** The entry of {@value #FORMATS} that stands for ISO-8601 dates and date-times. */
  public static final String ISO = "ISO-8601";

  private NormalizeTimestampConfig() {}

  /** What {@link NormalizeTimestamp} was configured with. */
  public record Settings(List<FieldPath> fields, TimestampParser parser) {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            FIELDS,
            Type.LIST,
            ConfigDef.NO_DEFAULT_VALUE,
            (name, value) -> {
              if (value == null || ((List<?>) value).isEmpty()) {
                throw new ConfigException(name, value, "name at least one field");
              }
            },
            Importance.HIGH,
            "Dotted paths of the fields to turn into timestamps, e.g. 'created_at,meta.sent'. A"
                + " path crossing an array applies to every element ('items.shipped_at').")
        .define(
            FORMATS,
            Type.LIST,
            List.of(ISO),
            (name, value) -> {
              for (Object pattern : (List<?>) value) {
                checkPattern(name, pattern.toString());
              }
            },
            Importance.MEDIUM,
            "How strings are parsed, tried in order: java.time DateTimeFormatter patterns (e.g."
                + " 'dd/MM/yyyy HH:mm:ss') or 'ISO-8601' (dates and date-times with or without"
                + " zone). Strings that match none but are numbers are read as epochs.")
        .define(
            TIMEZONE,
            Type.STRING,
            "UTC",
            (name, value) -> {
              try {
                ZoneId.of(value.toString());
              } catch (DateTimeException e) {
                throw new ConfigException(name, value, "unknown time zone");
              }
            },
            Importance.LOW,
            "The zone of strings whose format has no zone or offset.")
        .define(
            EPOCH_UNIT,
            Type.STRING,
            "auto",
            ConfigDef.ValidString.in("auto", "seconds", "millis", "micros", "nanos"),
            Importance.MEDIUM,
            "The unit of numbers: 'seconds', 'millis', 'micros', 'nanos', or 'auto' by magnitude"
                + " (below 1e11 seconds, below 1e14 millis, below 1e17 micros, else nanos).");
  }

  private static void checkPattern(String name, String pattern) {
    if (pattern.equals(ISO)) {
      return;
    }
    try {
      DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          name, pattern, "not a DateTimeFormatter pattern: " + e.getMessage());
    }
  }

  public static Settings from(AbstractConfig config) {
    return new Settings(
        FieldPath.parseAll(FIELDS, config.getList(FIELDS)),
        new TimestampParser(
            config.getList(FORMATS),
            ZoneId.of(config.getString(TIMEZONE)),
            TimestampParser.EpochUnit.valueOf(
                config.getString(EPOCH_UNIT).toUpperCase(Locale.ROOT))));
  }
}
