package io.skippr.connect.source.poll.cursor;

import io.skippr.connect.source.poll.config.CursorConfig.CursorType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How cursor and tie-breaker values compare. Values are kept as text (the JSON number's digits or
 * the string) so an offset holds them exactly; {@link #check} says whether a value fits the type.
 */
public final class CursorOrder implements Comparator<String> {

  private static final Pattern NUMBER =
      Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

  private final CursorType type;

  public CursorOrder(CursorType type) {
    this.type = type;
  }

  /** Why {@code value} cannot be compared under this type, or empty when it can. */
  public Optional<String> check(String value) {
    return switch (type) {
      case NUMBER ->
          number(value) == null ? Optional.of("'" + value + "' is not a number") : Optional.empty();
      case TIMESTAMP ->
          instant(value) == null
              ? Optional.of("'" + value + "' is not an ISO-8601 timestamp")
              : Optional.empty();
      default -> Optional.empty();
    };
  }

  @Override
  public int compare(String a, String b) {
    switch (type) {
      case NUMBER:
        return compareNumbers(a, b);
      case TIMESTAMP:
        return compareInstants(a, b);
      case STRING:
        return a.compareTo(b);
      default:
        BigDecimal na = number(a);
        BigDecimal nb = number(b);
        if (na != null && nb != null) {
          return na.compareTo(nb);
        }
        Instant ia = instant(a);
        Instant ib = instant(b);
        if (ia != null && ib != null) {
          return ia.compareTo(ib);
        }
        return a.compareTo(b);
    }
  }

  private static int compareNumbers(String a, String b) {
    BigDecimal na = number(a);
    BigDecimal nb = number(b);
    return na != null && nb != null ? na.compareTo(nb) : a.compareTo(b);
  }

  private static int compareInstants(String a, String b) {
    Instant ia = instant(a);
    Instant ib = instant(b);
    return ia != null && ib != null ? ia.compareTo(ib) : a.compareTo(b);
  }

  /** The number a JSON number's text holds; null for other text and for exponents beyond int. */
  static BigDecimal number(String text) {
    if (text == null || !NUMBER.matcher(text).matches()) {
      return null;
    }
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      return null; // 1e99999999999: no BigDecimal holds it
    }
  }

  /** An ISO-8601 date-time with offset, a local date-time (taken as UTC), or a date. */
  static Instant instant(String text) {
    if (text == null || text.length() < 10 || !Character.isDigit(text.charAt(0))) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      // not with an offset: try without
    }
    try {
      return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      // not a local date-time either
    }
    try {
      return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
