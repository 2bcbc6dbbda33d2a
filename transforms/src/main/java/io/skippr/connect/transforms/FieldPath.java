package io.skippr.connect.transforms;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * A dotted path to a field inside a record value: {@code type} or {@code meta.tenant}. Each segment
 * names a field of a Struct or a key of a Map.
 *
 * @param text the path as configured
 * @param segments the field names, outermost first
 */
record FieldPath(String text, List<String> segments) {

  FieldPath {
    segments = List.copyOf(segments);
  }

  /**
   * Parses a configured path.
   *
   * @throws ConfigException naming {@code key} when a segment is empty
   */
  static FieldPath parse(String key, String text) {
    String trimmed = text.trim();
    List<String> segments = List.of(trimmed.split("\\.", -1));
    if (trimmed.isEmpty() || segments.stream().anyMatch(String::isEmpty)) {
      throw new ConfigException(key, text, "a field path is one or more names joined by '.'");
    }
    return new FieldPath(trimmed, segments);
  }

  /** Parses every path of a list setting. */
  static List<FieldPath> parseAll(String key, List<String> texts) {
    return texts.stream().map(t -> parse(key, t)).toList();
  }

  /** The value at this path in a Struct or Map value; null when any step is missing or null. */
  Object read(Object root) {
    Object current = root;
    for (String segment : segments) {
      current = child(current, segment);
      if (current == null) {
        return null;
      }
    }
    return current;
  }

  private static Object child(Object parent, String name) {
    if (parent instanceof Struct struct) {
      Field field = struct.schema().field(name);
      return field == null ? null : struct.get(field);
    }
    if (parent instanceof Map<?, ?> map) {
      return map.get(name);
    }
    return null;
  }

  @Override
  public String toString() {
    return text;
  }
}
