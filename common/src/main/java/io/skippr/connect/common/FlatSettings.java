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
 * <p>A list has no flat form when an item is a mapping, a list or null, or holds a comma (it would
 * be read back as two items). {@link #of} leaves such a list out (a whole file may hold sections
 * for other readers); {@link #strict} refuses it, naming the key, for mappings that are a
 * connector's settings. Both refuse a key given both with dots and nested ({@code a.b: 1} beside
 * {@code a: {b: 2}}): which one counts would be a guess.
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
   * The settings of {@code mapping} in document order, lists with no flat form left out; empty when
   * it is no mapping.
   *
   * @throws Refused for a key given both with dots and nested
   */
  public static Map<String, String> of(JsonNode mapping) {
    Map<String, String> out = new LinkedHashMap<>();
    flatten("", mapping, out, false);
    return out;
  }

  /**
   * As {@link #of}, refusing a list with no flat form.
   *
   * @throws Refused for a list with no flat form or a key given both with dots and nested
   */
  public static Map<String, String> strict(JsonNode mapping) {
    Map<String, String> out = new LinkedHashMap<>();
    flatten("", mapping, out, true);
    return out;
  }

  private static void flatten(
      String prefix, JsonNode node, Map<String, String> out, boolean strict) {
    if (!node.isObject()) {
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      String key = prefix + entry.getKey();
      JsonNode value = entry.getValue();
      if (value.isObject()) {
        flatten(key + ".", value, out, strict);
      } else if (value.isArray()) {
        String problem = noFlatForm(key, value);
        if (problem == null) {
          put(key, joined(value), out);
        } else if (strict) {
          throw new Refused(problem);
        }
      } else if (!value.isNull()) {
        put(key, value.asText(), out);
      }
    }
  }

  /** Why the list has no flat form, naming the key and item; null when it has one. */
  private static String noFlatForm(String key, JsonNode list) {
    int number = 0;
    for (JsonNode item : list) {
      number++;
      String where = key + " (item " + number + ")";
      if (item.isNull()) {
        return where + ": a list item must be a scalar, not null";
      }
      if (!item.isValueNode()) {
        return where + ": a list item must be a scalar, not a " + kind(item);
      }
      if (item.asText().contains(",")) {
        return where
            + ": a list item may not hold a comma (the list is read as its items joined with"
            + " commas); write the whole value as one string instead";
      }
    }
    return null;
  }

  private static String joined(JsonNode list) {
    List<String> items = new ArrayList<>();
    list.forEach(item -> items.add(item.asText()));
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
