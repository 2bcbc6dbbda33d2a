package io.skippr.connect.source.http.convert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.skippr.connect.source.lineprotocol.Utf8;
import java.io.ByteArrayInputStream;
import java.io.CharConversionException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits a JSON ingest body into items: a JSON array of objects, NDJSON (one object per line, or
 * any sequence of objects), or {@code {"metrics":[…]}} as Telegraf's JSON serializer batches them.
 * Items are numbered from 0. Each object becomes a schemaless map (nested maps and lists, long,
 * double, boolean, string, null) that the lake sink infers a schema for. A body that is not valid
 * JSON (or not valid UTF-8) is split by lines so one broken line rejects only itself, and a line
 * must hold one value and nothing after it; a broken array rejects the whole body as item 0. Text
 * must be Unicode: invalid UTF-8, and an escaped unpaired surrogate, reject the item (UTF-8 cannot
 * hold such a string, so it would not reach the lake as sent).
 */
public final class JsonItems {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ObjectReader ONE_VALUE =
      MAPPER.readerFor(JsonNode.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** One item: its 0-based position and either its value or the reason it was rejected. */
  public record Item(int index, Map<String, Object> value, String rejection, String text) {}

  /** Thrown when the body holds more items than a request may. */
  public static final class TooManyItems extends Exception {
    private static final long serialVersionUID = 1L;

    TooManyItems(int max) {
      super("more than " + max + " items in one request");
    }
  }

  private JsonItems() {}

  public static List<Item> parse(byte[] body, int length, int maxItems) throws TooManyItems {
    int first = 0;
    while (first < length && isJsonSpace(body[first])) {
      first++;
    }
    if (first == length) {
      return List.of();
    }
    int invalid = Utf8.firstInvalid(body, first, length);
    List<JsonNode> roots;
    try {
      if (invalid >= 0) {
        throw new CharConversionException(notUtf8(invalid));
      }
      roots = readRoots(body, first, length);
    } catch (IOException e) {
      if (body[first] == '[') {
        return List.of(new Item(0, null, malformed(e), preview(body, first, length)));
      }
      return byLines(body, length, maxItems);
    }
    List<JsonNode> nodes = unwrap(roots);
    if (nodes.size() > maxItems) {
      throw new TooManyItems(maxItems);
    }
    List<Item> items = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      items.add(item(i, nodes.get(i)));
    }
    return items;
  }

  /** The items: an array's elements, a metrics batch's metrics, or the root values themselves. */
  private static List<JsonNode> unwrap(List<JsonNode> roots) {
    if (roots.size() == 1 && roots.get(0).isArray()) {
      return toList(roots.get(0));
    } else if (roots.size() == 1 && roots.get(0).path("metrics").isArray()) {
      return toList(roots.get(0).get("metrics"));
    }
    return roots;
  }

  private static List<JsonNode> readRoots(byte[] body, int first, int length) throws IOException {
    List<JsonNode> roots = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        MAPPER.readerFor(JsonNode.class).readValues(body, first, length - first)) {
      while (it.hasNextValue()) {
        roots.add(it.nextValue());
      }
    }
    return roots;
  }

  private static List<Item> byLines(byte[] body, int length, int maxItems) throws TooManyItems {
    List<Item> items = new ArrayList<>();
    int start = 0;
    while (start < length) {
      int end = start;
      while (end < length && body[end] != '\n') {
        end++;
      }
      if (!isBlank(body, start, end)) {
        if (items.size() == maxItems) {
          throw new TooManyItems(maxItems);
        }
        items.add(lineItem(items.size(), body, start, end));
      }
      start = end + 1;
    }
    return items;
  }

  private static Item lineItem(int index, byte[] body, int start, int end) {
    int invalid = Utf8.firstInvalid(body, start, end);
    if (invalid >= 0) {
      return new Item(index, null, notUtf8(invalid - start), preview(body, start, end));
    }
    try {
      return item(index, ONE_VALUE.readTree(new ByteArrayInputStream(body, start, end - start)));
    } catch (IOException e) {
      return new Item(index, null, malformed(e), preview(body, start, end));
    }
  }

  private static String notUtf8(int offset) {
    return "not valid UTF-8 (at byte " + offset + ")";
  }

  private static Item item(int index, JsonNode node) {
    if (!node.isObject()) {
      return new Item(index, null, "item is not a JSON object", node.toString());
    }
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> value = (Map<String, Object>) toJava(node);
      return new Item(index, value, null, null);
    } catch (IllegalArgumentException e) {
      return new Item(index, null, e.getMessage(), node.toString());
    }
  }

  private static Object toJava(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> e = fields.next();
        map.put(unicode(e.getKey()), toJava(e.getValue()));
      }
      return map;
    } else if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      node.forEach(n -> list.add(toJava(n)));
      return list;
    } else if (node.isIntegralNumber()) {
      if (!node.canConvertToLong()) {
        throw new IllegalArgumentException("integer " + node + " outside the 64-bit range");
      }
      return node.longValue();
    } else if (node.isNumber()) {
      double d = node.doubleValue();
      if (Double.isInfinite(d)) {
        throw new IllegalArgumentException("number " + node + " outside the 64-bit float range");
      }
      return d;
    }
    return node.isNull()
        ? null
        : node.isBoolean() ? (Object) node.booleanValue() : unicode(node.asText());
  }

  private static String unicode(String text) {
    if (!Utf8.isWellFormed(text)) {
      throw new IllegalArgumentException(
          "a string holds an unpaired surrogate (an escape of half a character, like \\uD800)");
    }
    return text;
  }

  /** The JSON text of an item's value, for a rejection that names it. */
  public static String text(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return String.valueOf(value);
    }
  }

  private static List<JsonNode> toList(JsonNode array) {
    List<JsonNode> list = new ArrayList<>(array.size());
    array.forEach(list::add);
    return list;
  }

  /** JSON's whitespace only: Java's also holds the control characters 0x1C to 0x1F. */
  private static boolean isJsonSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  private static boolean isBlank(byte[] body, int start, int end) {
    for (int i = start; i < end; i++) {
      if (!isJsonSpace(body[i])) {
        return false;
      }
    }
    return true;
  }

  private static String malformed(IOException e) {
    String message =
        e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e.getMessage();
    return "malformed JSON: " + message;
  }

  private static String preview(byte[] body, int start, int end) {
    return new String(body, start, Math.min(end - start, 4096), StandardCharsets.UTF_8);
  }
}
