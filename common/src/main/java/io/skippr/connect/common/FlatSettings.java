package io.skippr.connect.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML mapping as the flat settings Connect takes, the one way the project reads settings from a
 * file: nested mappings are joined with dots ({@code server: {port: 8086}} is {@code
 * server.port=8086}); a list is its items joined with commas, as Connect reads a {@code LIST}
 * setting ({@code topics: [a, b]} is {@code topics=a,b}, an empty list the empty value); a scalar
 * is the text it is written with; a null value is no setting.
 *
 * <p>What has no flat form is refused, naming the key: a key given both with dots and nested
 * ({@code a.b: 1} beside {@code a: {b: 2}}), a list item that is a mapping, a list or null, and a
 * list item that holds a comma (it would be read back as two items).
 */
public final class FlatSettings {

  /** Why a mapping has no flat form; the message starts with the dotted key. */
  public static final class Refused extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private FlatSettings() {}

  /**
   * The settings of {@code mapping} in document order; empty when it is no mapping.
   *
   * @throws Refused for what has no flat form (see the class comment)
   */
  public static Map<String, String> of(JsonNode mapping) {
    Map<String, String> out = new LinkedHashMap<>();
    flatten("", mapping, out);
    return out;
  }

  private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
    if (!node.isObject()) {
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      String key = prefix + entry.getKey();
      JsonNode value = entry.getValue();
      if (value.isObject()) {
        flatten(key + ".", value, out);
      } else if (value.isArray()) {
        put(key, joined(key, value), out);
      } else if (!value.isNull()) {
        put(key, value.asText(), out);
      }
    }
  }

  private static String joined(String key, JsonNode list) {
    List<String> items = new ArrayList<>();
    for (JsonNode item : list) {
      String where = key + " (item " + (items.size() + 1) + ")";
      if (!item.isValueNode() || item.isNull()) {
        throw new Refused(
            where
                + ": a list item must be a scalar, not "
                + (item.isNull() ? "null" : "a " + kind(item)));
      }
      if (item.asText().contains(",")) {
        throw new Refused(
            where
                + ": a list item may not hold a comma (the list is read as its items joined with"
                + " commas); write the whole value as one string instead");
      }
      items.add(item.asText());
    }
    return String.join(",", items);
  }

  private static String kind(JsonNode node) {
    return node.isArray() ? "list" : "mapping";
  }

  private static void put(String key, String value, Map<String, String> out) {
    if (out.putIfAbsent(key, value) != null) {
      throw new Refused(key + " is given twice, once with dots in its key and once nested");
    }
  }
}
