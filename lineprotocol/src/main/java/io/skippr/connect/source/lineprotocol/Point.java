package io.skippr.connect.source.lineprotocol;

import java.util.List;

/**
 * An accepted line: measurement, tags sorted by key (UTF-8 byte order, as InfluxDB sorts them),
 * fields in written order with duplicate keys resolved (the last one wins) and the time in
 * nanoseconds since the epoch.
 */
public record Point(
    int line, String measurement, List<Tag> tags, List<Field> fields, long timeNanos)
    implements LineResult {

  /**
   * The canonical series key: the measurement and the sorted tag set written as line protocol, with
   * backslash escapes for the characters each element needs ({@code ,} and space in the
   * measurement; {@code ,} {@code =} and space in tags) and for the backslash itself, so parsing
   * the key again yields the same measurement and tags.
   */
  public String seriesKey() {
    StringBuilder sb = new StringBuilder(measurement.length() + tags.size() * 16);
    escape(sb, measurement, false);
    for (Tag tag : tags) {
      sb.append(',');
      escape(sb, tag.key(), true);
      sb.append('=');
      escape(sb, tag.value(), true);
    }
    return sb.toString();
  }

  private static void escape(StringBuilder sb, String text, boolean equalsToo) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ',' || c == ' ' || c == '\\' || (equalsToo && c == '=')) {
        sb.append('\\');
      }
      sb.append(c);
    }
  }
}
