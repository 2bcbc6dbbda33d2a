package io.skippr.connect.cli.discover;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Turns a source record value into the schemaless form inference reads: Structs become maps (in
 * field order), nested lists and maps are converted too, and JSON object text (String or bytes) is
 * parsed. Other values are not objects and have no contract.
 */
final class Schemaless {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Schemaless() {}

  /** The value as a map, or null when it is not an object (the caller counts it as skipped). */
  static Map<String, Object> object(Object value) {
    Object converted = convert(value);
    if (converted instanceof String text) {
      converted = parseObject(text);
    } else if (converted instanceof byte[] bytes) {
      converted = parseObject(new String(bytes, StandardCharsets.UTF_8));
    }
    if (!(converted instanceof Map<?, ?> map)) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }

  /** What kind of value {@link #object} refused, for the skipped-records note. */
  static String kind(Object value) {
    if (value == null) {
      return "null value";
    }
    if (value instanceof String || value instanceof byte[]) {
      return "value that is not a JSON object";
    }
    return value.getClass().getSimpleName() + " value";
  }

  private static Object convert(Object value) {
    if (value instanceof Struct struct) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Field field : struct.schema().fields()) {
        map.put(field.name(), convert(struct.get(field)));
      }
      return map;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(item -> out.add(convert(item)));
      return out;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(k, convert(v)));
      return out;
    }
    return value;
  }

  private static Object parseObject(String text) {
    String trimmed = text.trim();
    if (!trimmed.startsWith("{")) {
      return null;
    }
    try {
      return JSON.readValue(trimmed, Map.class);
    } catch (IOException e) {
      return null;
    }
  }
}
