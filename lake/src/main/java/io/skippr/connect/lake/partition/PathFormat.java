package io.skippr.connect.lake.partition;

import io.skippr.connect.lake.storage.PathEncoder;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A compiled {@code path.format}: Joda-Time pattern syntax, as in Confluent's S3 sink, split into
 * directory segments at {@code /}. Text in single quotes is literal ({@code ''} is a quote); {@code
 * YYYY} and {@code yyyy} are the calendar year, {@code xxxx} the week-year and {@code ww} its week
 * (by the locale's week rules), {@code MM} month, {@code dd} day, {@code HH} hour, {@code mm}
 * minute, {@code ss} second. Each rendered segment is encoded with {@link PathEncoder}: {@code
 * name=value} segments part by part, others whole.
 */
final class PathFormat {
  /** Rendered once at compile time so fields a date-time cannot supply fail at configuration. */
  private static final OffsetDateTime SAMPLE =
      OffsetDateTime.of(2024, 5, 1, 7, 45, 12, 345_000_000, ZoneOffset.UTC);

  private final String pattern;
  private final List<DateTimeFormatter> segments;

  private PathFormat(String pattern, List<DateTimeFormatter> segments) {
    this.pattern = pattern;
    this.segments = segments;
  }

  /**
   * Compiles a pattern.
   *
   * @throws IllegalArgumentException when the pattern is empty, has an empty segment, or uses a
   *     letter that is not a date-time field
   */
  static PathFormat compile(String pattern, Locale locale) {
    if (pattern == null || pattern.isBlank()) {
      throw new IllegalArgumentException("path.format is empty");
    }
    List<DateTimeFormatter> segments = new ArrayList<>();
    for (String segment : splitSegments(pattern)) {
      if (segment.isEmpty()) {
        throw new IllegalArgumentException(
            "path.format has an empty directory segment (a leading, trailing or double '/')");
      }
      segments.add(DateTimeFormatter.ofPattern(toJavaPattern(segment), locale));
    }
    PathFormat format = new PathFormat(pattern, List.copyOf(segments));
    try {
      format.render(SAMPLE);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("path.format cannot be rendered: " + e.getMessage(), e);
    }
    return format;
  }

  /** The encoded relative path for a (floored, local) date-time. */
  String render(OffsetDateTime time) {
    StringBuilder out = new StringBuilder();
    for (DateTimeFormatter segment : segments) {
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(encodeSegment(segment.format(time)));
    }
    return out.toString();
  }

  String pattern() {
    return pattern;
  }

  /** How many directory segments a rendered path has. */
  int segmentCount() {
    return segments.size();
  }

  /**
   * The bucket start a rendered path stands for, and the finest field it names; empty when a
   * segment does not parse or the fields do not name a date (week-based patterns do not).
   */
  Optional<Parsed> parse(List<String> rendered) {
    Map<ChronoField, Long> fields = new EnumMap<>(ChronoField.class);
    for (int i = 0; i < segments.size(); i++) {
      TemporalAccessor parsed;
      try {
        parsed = segments.get(i).parse(decodeSegment(rendered.get(i)));
      } catch (DateTimeException | IllegalArgumentException e) {
        return Optional.empty();
      }
      for (ChronoField field : DATE_FIELDS) {
        if (parsed.isSupported(field)) {
          fields.put(field, parsed.getLong(field));
        }
      }
    }
    return bucketOf(fields);
  }

  private static Optional<Parsed> bucketOf(Map<ChronoField, Long> fields) {
    Long year =
        fields.containsKey(ChronoField.YEAR)
            ? fields.get(ChronoField.YEAR)
            : fields.get(ChronoField.YEAR_OF_ERA);
    if (year == null) {
      return Optional.empty();
    }
    ChronoUnit finest = ChronoUnit.YEARS;
    for (int i = 2; i < DATE_FIELDS.size(); i++) {
      if (fields.containsKey(DATE_FIELDS.get(i))) {
        finest = (ChronoUnit) DATE_FIELDS.get(i).getBaseUnit();
      }
    }
    try {
      return Optional.of(
          new Parsed(
              LocalDateTime.of(
                  Math.toIntExact(year),
                  fields.getOrDefault(ChronoField.MONTH_OF_YEAR, 1L).intValue(),
                  fields.getOrDefault(ChronoField.DAY_OF_MONTH, 1L).intValue(),
                  fields.getOrDefault(ChronoField.HOUR_OF_DAY, 0L).intValue(),
                  fields.getOrDefault(ChronoField.MINUTE_OF_HOUR, 0L).intValue(),
                  fields.getOrDefault(ChronoField.SECOND_OF_MINUTE, 0L).intValue()),
              finest));
    } catch (DateTimeException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** A parsed path: the local bucket start and the unit of its finest field. */
  record Parsed(LocalDateTime start, ChronoUnit finest) {}

  /** Year first, then coarser to finer: the fields a time path can name. */
  private static final List<ChronoField> DATE_FIELDS =
      List.of(
          ChronoField.YEAR,
          ChronoField.YEAR_OF_ERA,
          ChronoField.MONTH_OF_YEAR,
          ChronoField.DAY_OF_MONTH,
          ChronoField.HOUR_OF_DAY,
          ChronoField.MINUTE_OF_HOUR,
          ChronoField.SECOND_OF_MINUTE);

  private static String decodeSegment(String encoded) {
    int eq = encoded.indexOf('=');
    return eq > 0
        ? PathEncoder.decode(encoded.substring(0, eq))
            + "="
            + PathEncoder.decode(encoded.substring(eq + 1))
        : PathEncoder.decode(encoded);
  }

  static String encodeSegment(String rendered) {
    int eq = rendered.indexOf('=');
    return eq > 0
        ? PathEncoder.segment(rendered.substring(0, eq), rendered.substring(eq + 1))
        : PathEncoder.encode(rendered);
  }

  /** Splits at '/' outside quoted text. */
  static List<String> splitSegments(String pattern) {
    List<String> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      }
      if (c == '/' && !quoted) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("path.format has an unterminated quote");
    }
    parts.add(current.toString());
    return parts;
  }

  /**
   * Translates Joda-Time letters to java.time ones where they differ (Joda {@code Y} year-of-era is
   * java {@code y}, Joda {@code y} year is {@code u}, Joda {@code x} week-year is {@code Y}) and
   * quotes characters java.time reserves but Joda treats as literals.
   */
  static String toJavaPattern(String joda) {
    StringBuilder out = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < joda.length(); i++) {
      char c = joda.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
        out.append(c);
      } else if (quoted) {
        out.append(c);
      } else if ("[]{}#".indexOf(c) >= 0) {
        out.append('\'').append(c).append('\'');
      } else {
        out.append(
            switch (c) {
              case 'Y' -> 'y';
              case 'y' -> 'u';
              case 'x' -> 'Y';
              default -> c;
            });
      }
    }
    return out.toString();
  }
}
