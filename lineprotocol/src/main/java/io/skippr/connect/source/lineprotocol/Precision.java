package io.skippr.connect.source.lineprotocol;

import java.util.Locale;
import java.util.Optional;

/** Timestamp precision of a write request; converts a written timestamp to nanoseconds. */
public enum Precision {
  NANOSECONDS(1L),
  MICROSECONDS(1_000L),
  MILLISECONDS(1_000_000L),
  SECONDS(1_000_000_000L),
  MINUTES(60_000_000_000L),
  HOURS(3_600_000_000_000L),
  /** Guessed per timestamp from its magnitude (InfluxDB 3's {@code auto}). */
  AUTO(0L);

  /** Smallest timestamp the line protocol reference allows, in nanoseconds. */
  public static final long MIN_NANOS = Long.MIN_VALUE + 2;

  /** Largest timestamp the line protocol reference allows, in nanoseconds. */
  public static final long MAX_NANOS = Long.MAX_VALUE - 1;

  private final long nanosPerUnit;

  Precision(long nanosPerUnit) {
    this.nanosPerUnit = nanosPerUnit;
  }

  /**
   * Parses the spellings of the v1 ({@code n u ms s m h}), v2 ({@code ns us ms s}) and v3 ({@code
   * nanosecond microsecond millisecond second auto}) write APIs. Empty or null means nanoseconds.
   */
  public static Optional<Precision> parse(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.of(NANOSECONDS);
    }
    return Optional.ofNullable(
        switch (text.toLowerCase(Locale.ROOT)) {
          case "n", "ns", "nanosecond" -> NANOSECONDS;
          case "u", "us", "\u00b5", "\u00b5s", "microsecond" -> MICROSECONDS;
          case "ms", "millisecond" -> MILLISECONDS;
          case "s", "second" -> SECONDS;
          case "m" -> MINUTES;
          case "h" -> HOURS;
          case "auto" -> AUTO;
          default -> null;
        });
  }

  /**
   * Converts a written timestamp to nanoseconds, or returns {@code null} when the result lies
   * outside [{@link #MIN_NANOS}, {@link #MAX_NANOS}].
   */
  public Long toNanos(long value) {
    long unit = this == AUTO ? autoUnit(value) : nanosPerUnit;
    long high = Math.multiplyHigh(value, unit);
    long nanos = value * unit;
    if ((high != 0 || nanos < 0) && (high != -1 || nanos >= 0)) {
      return null;
    }
    return nanos < MIN_NANOS || nanos > MAX_NANOS ? null : nanos;
  }

  private static long autoUnit(long value) {
    long magnitude = value == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(value);
    if (magnitude < 5_000_000_000L) {
      return SECONDS.nanosPerUnit;
    } else if (magnitude < 5_000_000_000_000L) {
      return MILLISECONDS.nanosPerUnit;
    } else if (magnitude < 5_000_000_000_000_000L) {
      return MICROSECONDS.nanosPerUnit;
    }
    return NANOSECONDS.nanosPerUnit;
  }
}
