package io.skippr.connect.lake.partition;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Validators of the partitioning keys, so a bad value fails at connector validation. */
final class PartitioningValidators {
  private PartitioningValidators() {}

  static ConfigDef.Validator partitioner() {
    return validator(
        "default, field, time or field+time", v -> PartitioningConfig.parseKind((String) v));
  }

  static ConfigDef.Validator timestampSource() {
    return validator(
        "Record, RecordField or Wallclock",
        v -> PartitioningConfig.parseTimestampSource((String) v));
  }

  static ConfigDef.Validator fieldNames() {
    return validator(
        "field names or dotted paths",
        v -> {
          for (Object name : (List<?>) v) {
            String s = name.toString().trim();
            if (s.isEmpty() || s.startsWith(".") || s.endsWith(".") || s.contains("..")) {
              throw new ConfigException(PartitioningConfig.PARTITION_FIELD_NAME, v, "bad name");
            }
          }
        });
  }

  static ConfigDef.Validator pathFormat() {
    return validator(
        "a Joda-Time pattern such as 'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH",
        v -> {
          String s = (String) v;
          if (!s.isEmpty()) {
            PathFormat.compile(s, Locale.ROOT);
          }
        });
  }

  static ConfigDef.Validator timezone() {
    return validator("a time zone id such as UTC or Europe/Berlin", v -> ZoneId.of((String) v));
  }

  static ConfigDef.Validator locale() {
    return validator(
        "an IETF BCP 47 language tag such as en-US, or empty",
        v -> {
          String s = ((String) v).trim();
          if (!s.isEmpty() && Locale.forLanguageTag(s).toLanguageTag().equals("und")) {
            throw new IllegalArgumentException("unknown locale");
          }
        });
  }

  private interface Check {
    void check(Object value);
  }

  private static ConfigDef.Validator validator(String expected, Check check) {
    return new ConfigDef.Validator() {
      @Override
      public void ensureValid(String name, Object value) {
        if (value == null) {
          throw new ConfigException(name, null, "expected " + expected);
        }
        try {
          check.check(value);
        } catch (IllegalArgumentException | DateTimeException | ConfigException e) {
          throw new ConfigException(name, value, "expected " + expected + ": " + e.getMessage());
        }
      }

      @Override
      public String toString() {
        return expected;
      }
    };
  }
}
