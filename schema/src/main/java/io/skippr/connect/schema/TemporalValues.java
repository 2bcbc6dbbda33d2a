package io.skippr.connect.schema;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;
import java.util.Set;

/**
 * Recognises temporal values in schemaless data: ISO-8601 dates and date-times, and epoch seconds
 * or milliseconds in fields whose name says they hold a time.
 */
public final class TemporalValues {
  /** 1990-01-01T00:00:00Z: older epoch numbers are more likely counters than instants. */
  public static final long MIN_PLAUSIBLE_EPOCH_SECONDS = 631_152_000L;

  /** 2100-01-01T00:00:00Z. */
  public static final long MAX_PLAUSIBLE_EPOCH_SECONDS = 4_102_444_800L;

  private static final long MS_PER_DAY = 86_400_000L;

  private static final Set<String> TIME_WORDS =
      Set.of("ts", "time", "timestamp", "datetime", "at", "epoch", "instant");
  private static final Set<String> UNIT_WORDS =
      Set.of("ms", "millis", "milliseconds", "sec", "secs", "seconds", "epoch");

  /** {@code yyyy-MM-dd('T'| )HH:mm[:ss[.fraction]][zone]}; no zone means UTC. */
  private static final DateTimeFormatter DATE_TIME =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral('T')
          .appendValue(ChronoField.HOUR_OF_DAY, 2)
          .appendLiteral(':')
          .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
          .optionalStart()
          .appendLiteral(':')
          .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HH:MM", "Z")
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HHMM", "Z")
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HH", "Z")
          .optionalEnd()
          .toFormatter(Locale.ROOT)
          .withResolverStyle(ResolverStyle.STRICT)
          .withChronology(java.time.chrono.IsoChronology.INSTANCE);

  private TemporalValues() {}

  /** True when the text is an ISO-8601 calendar date ({@code 2024-05-01}). */
  public static boolean isIsoDate(String text) {
    return text.length() == 10 && startsLikeDate(text) && parseIsoDate(text) != null;
  }

  /** True when the text is an ISO-8601 date-time (with or without zone; none means UTC). */
  public static boolean isIsoDateTime(String text) {
    return text.length() >= 16 && startsLikeDate(text) && parseIsoDateTimeMillis(text) != null;
  }

  /** Epoch days of an ISO date, or null when the text is not one. */
  public static Integer parseIsoDate(String text) {
    if (text.length() != 10 || !startsLikeDate(text)) {
      return null;
    }
    try {
      return Math.toIntExact(LocalDate.parse(text, DateTimeFormatter.ISO_LOCAL_DATE).toEpochDay());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** Epoch milliseconds of an ISO date-time (UTC when no zone), or null when not one. */
  public static Long parseIsoDateTimeMillis(String text) {
    if (text.length() < 16 || !startsLikeDate(text)) {
      return null;
    }
    long scanned = IsoDateTimeScanner.scan(text);
    if (scanned != IsoDateTimeScanner.UNSURE) {
      return scanned;
    }
    char separator = text.charAt(10);
    if (separator != 'T' && separator != ' ') {
      return null;
    }
    try {
      TemporalAccessor parsed =
          DATE_TIME.parse(
              separator == 'T' ? text : text.substring(0, 10) + 'T' + text.substring(11));
      long days = parsed.getLong(ChronoField.EPOCH_DAY);
      long nanoOfDay = parsed.getLong(ChronoField.NANO_OF_DAY);
      long offsetSeconds =
          parsed.isSupported(ChronoField.OFFSET_SECONDS)
              ? parsed.getLong(ChronoField.OFFSET_SECONDS)
              : ZoneOffset.UTC.getTotalSeconds();
      return days * MS_PER_DAY + nanoOfDay / 1_000_000L - offsetSeconds * 1000L;
    } catch (DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  /**
   * True when a field name says it holds an instant: {@code ts, time, timestamp, datetime, epoch}
   * or ending in one of those or {@code at} ({@code created_at, eventTime, updatedAt}), optionally
   * followed by a unit ({@code event_time_ms, ts_millis}).
   */
  public static boolean isTimeLikeName(String name) {
    if (name == null || name.isEmpty()) {
      return false;
    }
    String[] words = words(name);
    int last = words.length - 1;
    if (last < 0) {
      return false;
    }
    if (last > 0 && UNIT_WORDS.contains(words[last]) && TIME_WORDS.contains(words[last - 1])) {
      return true;
    }
    return TIME_WORDS.contains(words[last]) && !(words.length == 1 && words[0].equals("at"));
  }

  /**
   * Epoch milliseconds for a number that is a plausible epoch instant in seconds or milliseconds
   * (1990..2100), or null when it is neither.
   */
  public static Long plausibleEpochMillis(double value) {
    if (value >= MIN_PLAUSIBLE_EPOCH_SECONDS && value < MAX_PLAUSIBLE_EPOCH_SECONDS) {
      return Math.round(value * 1000.0);
    }
    if (value >= MIN_PLAUSIBLE_EPOCH_SECONDS * 1000.0
        && value < MAX_PLAUSIBLE_EPOCH_SECONDS * 1000.0) {
      return Math.round(value);
    }
    return null;
  }

  /**
   * Reads an epoch number as milliseconds: values below 10^11 (year 5138 in seconds, 1973 in
   * milliseconds) are seconds, the rest milliseconds.
   */
  public static long epochToMillis(double value) {
    return Math.abs(value) < 1e11 ? Math.round(value * 1000.0) : Math.round(value);
  }

  private static boolean startsLikeDate(String text) {
    return digits(text, 0, 4)
        && text.charAt(4) == '-'
        && digits(text, 5, 7)
        && text.charAt(7) == '-'
        && digits(text, 8, 10);
  }

  private static boolean digits(String text, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static String[] words(String name) {
    String spaced = name.replaceAll("([a-z0-9])([A-Z])", "$1_$2");
    String trimmed = spaced.toLowerCase(Locale.ROOT).replaceAll("^[^a-z0-9]+", "");
    return trimmed.isEmpty() ? new String[0] : trimmed.split("[^a-z0-9]+");
  }
}
