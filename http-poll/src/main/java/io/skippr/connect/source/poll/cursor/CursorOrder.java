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

  /** Kinds of cursor values, in their order. */
  private static final int NUMBER_KIND = 0;

  private static final int INSTANT_KIND = 1;
  private static final int TEXT = 2;

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

  /**
   * Numbers by value and timestamps by instant (as the type allows), each before any other text,
   * and other text by its characters. Ranking kinds first keeps the order transitive when an API
   * mixes them: comparing a number with text by characters and two numbers by value does not.
   */
  @Override
  public int compare(String a, String b) {
    if (type == CursorType.STRING) {
      return a.compareTo(b);
    }
    Comparable<Object> va = value(a);
    Comparable<Object> vb = value(b);
    int ka = kind(va);
    int kb = kind(vb);
    if (ka != kb) {
      return Integer.compare(ka, kb);
    }
    return ka == TEXT ? a.compareTo(b) : va.compareTo(vb);
  }

  private static int kind(Object value) {
    return value instanceof BigDecimal
        ? NUMBER_KIND
        : value instanceof Instant ? INSTANT_KIND : TEXT;
  }

  /** The number or instant the type reads from {@code text}; null for text. */
  @SuppressWarnings("unchecked")
  private Comparable<Object> value(String text) {
    Object value = null;
    if (type != CursorType.TIMESTAMP) {
      value = number(text);
    }
    if (value == null && type != CursorType.NUMBER) {
      value = instant(text);
    }
    return (Comparable<Object>) value;
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
