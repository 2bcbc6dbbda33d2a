package io.skippr.connect.schema;

/**
 * Reads the ISO-8601 date-times schemaless data mostly holds ({@code 2024-05-01T12:30:00.123Z},
 * with a space for the {@code T}, seconds and fraction optional, {@code Z}, {@code ±HH:MM} or no
 * zone) by hand, without the formatter's parse state: the formatter copies its parsed fields at
 * every optional section, which made parsing the most expensive step of converting a row. Anything
 * it is not sure of (other offset forms, out-of-range fields) it leaves to the formatter of {@link
 * TemporalValues}, so the answer never differs, only its cost.
 */
final class IsoDateTimeScanner {
  /** The answer when the formatter must decide. */
  static final long UNSURE = Long.MIN_VALUE;

  private static final long MS_PER_DAY = 86_400_000L;
  private static final int[] DAYS_IN_MONTH = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

  private IsoDateTimeScanner() {}

  /**
   * Epoch milliseconds of {@code text} (UTC when it has no zone), or {@link #UNSURE}. The caller
   * has checked that it starts like a date ({@code dddd-dd-dd}) and is at least 16 characters.
   */
  static long scan(String text) {
    int end = endOfTime(text);
    if (end < 0) {
      return UNSURE;
    }
    long offsetSeconds = offsetSeconds(text, end);
    int year = number(text, 0, 4);
    int month = number(text, 5, 7);
    int day = number(text, 8, 10);
    int hour = number(text, 11, 13);
    int minute = number(text, 14, 16);
    int second = end > 16 ? number(text, 17, 19) : 0;
    if (offsetSeconds == UNSURE || !valid(year, month, day, hour, minute, second)) {
      return UNSURE;
    }
    long nanos = end > 19 ? fractionNanos(text, 20, end) : 0;
    long days = epochDay(year, month, day);
    long millisOfDay = hour * 3_600_000L + minute * 60_000L + second * 1000L + nanos / 1_000_000L;
    return days * MS_PER_DAY + millisOfDay - offsetSeconds * 1000L;
  }

  /**
   * Where the time of day ends: after {@code [T ]HH:mm}, {@code :ss} and {@code .fraction} (1 to 9
   * digits) when present; -1 when the text is not of that form.
   */
  private static int endOfTime(String text) {
    if (!hoursAndMinutes(text)) {
      return -1;
    }
    int length = text.length();
    if (length == 16 || text.charAt(16) != ':') {
      return 16;
    }
    if (!digits(text, 17, 19)) {
      return -1;
    }
    if (length == 19 || text.charAt(19) != '.') {
      return 19;
    }
    int end = 20;
    while (end < length && isDigit(text.charAt(end))) {
      end++;
    }
    int fractionDigits = end - 20;
    return fractionDigits < 1 || fractionDigits > 9 ? -1 : end;
  }

  /** {@code [T ]HH:mm} after the date. */
  private static boolean hoursAndMinutes(String text) {
    char separator = text.charAt(10);
    return (separator == 'T' || separator == ' ')
        && digits(text, 11, 13)
        && text.charAt(13) == ':'
        && digits(text, 14, 16);
  }

  private static long fractionNanos(String text, int from, int to) {
    long nanos = number(text, from, to);
    for (int i = to - from; i < 9; i++) {
      nanos *= 10;
    }
    return nanos;
  }

  /** The zone at {@code at} to the end: none, {@code Z} or {@code ±HH:MM}; else UNSURE. */
  private static long offsetSeconds(String text, int at) {
    int left = text.length() - at;
    if (left == 0) {
      return 0;
    }
    if (left == 1 && text.charAt(at) == 'Z') {
      return 0;
    }
    char sign = text.charAt(at);
    if (left != 6
        || (sign != '+' && sign != '-')
        || !digits(text, at + 1, at + 3)
        || text.charAt(at + 3) != ':'
        || !digits(text, at + 4, at + 6)) {
      return UNSURE;
    }
    int hours = number(text, at + 1, at + 3);
    int minutes = number(text, at + 4, at + 6);
    if (hours > 17 || minutes > 59) {
      return UNSURE; // up to ±18:00 is valid: the formatter decides the rare rest
    }
    long seconds = hours * 3600L + minutes * 60L;
    return sign == '-' ? -seconds : seconds;
  }

  private static boolean valid(int year, int month, int day, int hour, int minute, int second) {
    if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
      return false;
    }
    int days = DAYS_IN_MONTH[month - 1];
    if (month == 2 && leap(year)) {
      days = 29;
    }
    return day <= days;
  }

  private static boolean leap(int year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date, as {@code LocalDate.toEpochDay}. */
  private static long epochDay(int year, int month, int day) {
    long y = year;
    long total = 365 * y;
    total += (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400;
    total += (367 * month - 362) / 12;
    total += day - 1;
    if (month > 2) {
      total--;
      if (!leap(year)) {
        total--;
      }
    }
    return total - 719_528; // days from year 0 to 1970
  }

  private static boolean digits(String text, int from, int to) {
    if (to > text.length()) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (!isDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static int number(String text, int from, int to) {
    int value = 0;
    for (int i = from; i < to; i++) {
      value = value * 10 + (text.charAt(i) - '0');
    }
    return value;
  }
}
