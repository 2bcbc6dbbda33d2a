package io.skippr.connect.source.poll.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** The {@code Retry-After} header (RFC 9110 §10.2.3): delay-seconds or an HTTP date. */
public final class RetryAfter {

  /** Longest wait honoured; a server asking for more is waited for this long, then asked again. */
  public static final Duration MAX = Duration.ofHours(1);

  private RetryAfter() {}

  /** The wait the header asks for, from {@code now}; empty when absent or unreadable. */
  public static Optional<Duration> parse(String value, Instant now) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String text = value.trim();
    if (text.chars().allMatch(Character::isDigit)) {
      try {
        return Optional.of(cap(Duration.ofSeconds(Long.parseLong(text))));
      } catch (NumberFormatException | ArithmeticException e) {
        return Optional.of(MAX);
      }
    }
    try {
      Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration wait = Duration.between(now, at);
      return Optional.of(wait.isNegative() ? Duration.ZERO : cap(wait));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Duration cap(Duration wait) {
    return wait.compareTo(MAX) > 0 ? MAX : wait;
  }
}
