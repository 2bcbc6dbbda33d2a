package io.skippr.connect.transforms;

import io.skippr.connect.schema.TemporalValues;
import io.skippr.connect.schema.ValueConformer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.connect.errors.DataException;

/** Reads strings in configured formats and epoch numbers as instants. */
final class TimestampParser {
  private static final long MS_PER_DAY = 86_400_000L;

  /** The unit of epoch numbers. */
  enum EpochUnit {
    AUTO,
    SECONDS,
    MILLIS,
    MICROS,
    NANOS
  }

  private final List<String> formatNames;
  private final List<DateTimeFormatter> formatters = new ArrayList<>();
  private final ZoneId zone;
  private final EpochUnit unit;

  TimestampParser(List<String> formats, ZoneId zone, EpochUnit unit) {
    this.formatNames = List.copyOf(formats);
    for (String format : formats) {
      formatters.add(
          format.equals(NormalizeTimestampConfig.ISO)
              ? null
              : DateTimeFormatter.ofPattern(format, Locale.ROOT));
    }
    this.zone = zone;
    this.unit = unit;
  }

  /**
   * The instant a value stands for.
   *
   * @throws DataException {@code path: reason} when the value is of another kind or unparseable
   */
  Date parse(Object value, String path) {
    if (value instanceof Date date) {
      return date;
    }
    if (value instanceof Number number) {
      return fromEpoch(number, path);
    }
    if (value instanceof String text) {
      Long millis = parseText(text.trim());
      if (millis != null) {
        return new Date(millis);
      }
      BigDecimal number = numeric(text.trim());
      if (number != null) {
        return fromEpoch(number, path);
      }
      throw new DataException(
          path
              + ": cannot parse "
              + ValueConformer.describe(value)
              + " as a timestamp (formats: "
              + String.join(", ", formatNames)
              + ")");
    }
    throw new DataException(
        path
            + ": expected a timestamp string or epoch number, got "
            + ValueConformer.describe(value));
  }

  private Long parseText(String text) {
    for (int i = 0; i < formatters.size(); i++) {
      DateTimeFormatter formatter = formatters.get(i);
      Long millis = formatter == null ? iso(text) : pattern(formatter, text);
      if (millis != null) {
        return millis;
      }
    }
    return null;
  }

  private static Long iso(String text) {
    Long millis = TemporalValues.parseIsoDateTimeMillis(text);
    if (millis == null) {
      Integer days = TemporalValues.parseIsoDate(text);
      millis = days == null ? null : days * MS_PER_DAY;
    }
    return millis;
  }

  private Long pattern(DateTimeFormatter formatter, String text) {
    TemporalAccessor parsed;
    try {
      parsed = formatter.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
    try {
      if (parsed.isSupported(ChronoField.INSTANT_SECONDS)) {
        return Instant.from(parsed).toEpochMilli();
      }
      LocalDate date = LocalDate.from(parsed);
      LocalDateTime time =
          parsed.isSupported(ChronoField.NANO_OF_DAY)
              ? date.atTime(
                  java.time.LocalTime.ofNanoOfDay(parsed.getLong(ChronoField.NANO_OF_DAY)))
              : date.atStartOfDay();
      return time.atZone(zone).toInstant().toEpochMilli();
    } catch (java.time.DateTimeException | ArithmeticException e) {
      return null;
    }
  }

  private Date fromEpoch(Number number, String path) {
    BigDecimal value = decimal(number);
    if (value == null) {
      throw new DataException(path + ": " + number + " is not a finite epoch number");
    }
    EpochUnit resolved = unit == EpochUnit.AUTO ? byMagnitude(value.abs()) : unit;
    BigDecimal millis =
        switch (resolved) {
          case SECONDS -> value.movePointRight(3);
          case MICROS -> value.movePointLeft(3);
          case NANOS -> value.movePointLeft(6);
          default -> value;
        };
    try {
      return new Date(millis.setScale(0, RoundingMode.FLOOR).longValueExact());
    } catch (ArithmeticException e) {
      throw new DataException(path + ": " + number + " is out of range as epoch " + resolved);
    }
  }

  private static EpochUnit byMagnitude(BigDecimal abs) {
    if (abs.compareTo(BigDecimal.valueOf(1e11)) < 0) {
      return EpochUnit.SECONDS;
    }
    if (abs.compareTo(BigDecimal.valueOf(1e14)) < 0) {
      return EpochUnit.MILLIS;
    }
    return abs.compareTo(BigDecimal.valueOf(1e17)) < 0 ? EpochUnit.MICROS : EpochUnit.NANOS;
  }

  private static BigDecimal decimal(Number number) {
    if (number instanceof BigDecimal d) {
      return d;
    }
    if (number instanceof BigInteger big) {
      return new BigDecimal(big);
    }
    if (number instanceof Double || number instanceof Float) {
      double d = number.doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }
    return BigDecimal.valueOf(number.longValue());
  }

  private static BigDecimal numeric(String text) {
    if (text.isEmpty() || !text.matches("[+-]?\\d+(\\.\\d+)?")) {
      return null;
    }
    return new BigDecimal(text);
  }
}
