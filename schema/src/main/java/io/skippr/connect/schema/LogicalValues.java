package io.skippr.connect.schema;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;

/** Conversions into Connect's logical types (Timestamp, Date, Time, Decimal). */
final class LogicalValues {
  private static final long MS_PER_DAY = 86_400_000L;

  private LogicalValues() {}

  static Object conform(Object value, Schema schema, String logical, String path) {
    Object result =
        switch (logical) {
          case "timestamp" -> timestamp(value);
          case "date" -> date(value);
          case "time" -> time(value);
          default -> decimal(value, schema);
        };
    if (result == null) {
      throw ValueConformer.mismatch(value, schema, path);
    }
    return result;
  }

  private static java.util.Date timestamp(Object value) {
    if (value instanceof java.util.Date date) {
      return date;
    }
    if (value instanceof Instant instant) {
      return java.util.Date.from(instant);
    }
    if (value instanceof String text) {
      Long millis = TemporalValues.parseIsoDateTimeMillis(text);
      if (millis == null) {
        Integer days = TemporalValues.parseIsoDate(text);
        millis = days == null ? null : days * MS_PER_DAY;
      }
      return millis == null ? null : new java.util.Date(millis);
    }
    if (value instanceof Number number && Double.isFinite(number.doubleValue())) {
      return new java.util.Date(TemporalValues.epochToMillis(number.doubleValue()));
    }
    return null;
  }

  private static java.util.Date date(Object value) {
    if (value instanceof java.util.Date date) {
      return date.getTime() % MS_PER_DAY == 0 ? date : null;
    }
    if (value instanceof String text) {
      Integer days = TemporalValues.parseIsoDate(text);
      return days == null ? null : new java.util.Date(days * MS_PER_DAY);
    }
    return null;
  }

  private static java.util.Date time(Object value) {
    if (value instanceof java.util.Date date) {
      long millis = date.getTime();
      return millis >= 0 && millis < MS_PER_DAY ? date : null;
    }
    if (value instanceof String text) {
      try {
        long nanos = LocalTime.parse(text).toNanoOfDay();
        return new java.util.Date(nanos / 1_000_000L);
      } catch (DateTimeParseException e) {
        return null;
      }
    }
    BigInteger millis = ValueConformer.integralValue(value);
    if (millis != null && millis.signum() >= 0 && millis.longValue() < MS_PER_DAY) {
      return new java.util.Date(millis.longValue());
    }
    return null;
  }

  private static BigDecimal decimal(Object value, Schema schema) {
    int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
    BigDecimal decimal;
    if (value instanceof BigDecimal d) {
      decimal = d;
    } else if (value instanceof BigInteger big) {
      decimal = new BigDecimal(big);
    } else if (value instanceof Number number && Double.isFinite(number.doubleValue())) {
      decimal =
          ValueConformer.integralValue(value) != null
              ? new BigDecimal(ValueConformer.integralValue(value))
              : BigDecimal.valueOf(number.doubleValue());
    } else if (value instanceof String text) {
      try {
        decimal = new BigDecimal(text);
      } catch (NumberFormatException e) {
        return null;
      }
    } else {
      return null;
    }
    try {
      return decimal.setScale(scale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      return null;
    }
  }
}
