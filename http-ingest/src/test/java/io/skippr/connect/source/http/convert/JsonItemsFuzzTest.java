package io.skippr.connect.source.http.convert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.skippr.connect.testkit.fuzz.Mutations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * JSON ingest bodies (fuzz.tries cases per property): bodies written from a model in the three
 * forms (array, NDJSON, {"metrics":[…]}), with escaped or raw unicode, give exactly the model's
 * items; mutated bodies (deep nesting, huge numbers, unicode escapes, duplicate keys, broken
 * syntax) never make the parser throw, give contiguous item numbers, the same items when parsed
 * twice, and only items JsonConverter can write as they are; a bad NDJSON line never fails a good
 * one.
 */
class JsonItemsFuzzTest {

  private static final int MAX_ITEMS = 50;
  private static final ObjectMapper RAW = new ObjectMapper();
  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_LONG_FOR_INTS)
          .build();
  private static final ObjectMapper ESCAPED =
      JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
  private static final String[] KEYS = {
    "id", "a", "b", "\u00e9t\u00e9", "k\"q", "back\\slash", "new\nline", "\uD83D\uDE80", "", "x y"
  };
  private static final String[] TEXTS = {
    "", "x", "\u00e9", "\uD83C\uDF6D", "\"", "\\", "/", "\n\t\r", "\u0000", "\u2028", "text"
  };

  /** Lines that are bad on their own, whatever is around them (a lone array would be a batch). */
  private static final String[] BAD_LINES = {
    "{\"a\":1,}",
    "{\"a\" 1}",
    "not json",
    "{\"a\":tru}",
    "{'a':1}",
    "\"just a string\"",
    "42",
    "{\"a\":1e999}",
    "{\"a\":123456789012345678901234567890}",
    "{\"a\":\"unterminated",
  };

  private final JsonConverter converter = new JsonConverter();

  JsonItemsFuzzTest() {
    converter.configure(Map.of("schemas.enable", "false"), false);
  }

  // ---- generated bodies: exactly the model's items ----

  @Property
  void generatedBodiesGiveTheirItems(@ForAll("models") List<Map<String, Object>> items)
      throws Exception {
    Random random = new Random(items.hashCode());
    ObjectMapper mapper = random.nextBoolean() ? RAW : ESCAPED;
    String body =
        switch (random.nextInt(3)) {
          case 0 -> mapper.writeValueAsString(items);
          case 1 -> "{\"metrics\":" + mapper.writeValueAsString(items) + "}";
          default -> ndjson(mapper, items, random);
        };
    List<JsonItems.Item> parsed = parse(body);
    assertThat(parsed).as(body).hasSameSizeAs(items);
    for (int i = 0; i < items.size(); i++) {
      assertThat(parsed.get(i).rejection()).as(body).isNull();
      assertThat(parsed.get(i).index()).isEqualTo(i);
      assertThat(parsed.get(i).value()).as(body).isEqualTo(items.get(i));
    }
  }

  @Provide
  Arbitrary<List<Map<String, Object>>> models() {
    return Arbitraries.randomValue(
        r -> {
          List<Map<String, Object>> items = new ArrayList<>();
          int count = r.nextInt(7);
          for (int i = 0; i < count; i++) {
            Map<String, Object> item = object(r, 0);
            item.remove("metrics"); // a lone object with a metrics array is a metrics batch
            items.add(item);
          }
          return items;
        });
  }

  private static Map<String, Object> object(Random r, int depth) {
    Map<String, Object> map = new LinkedHashMap<>();
    int fields = r.nextInt(depth == 0 ? 6 : 3);
    for (int i = 0; i < fields; i++) {
      map.put(KEYS[r.nextInt(KEYS.length)] + (r.nextBoolean() ? "" : i), value(r, depth + 1));
    }
    return map;
  }

  private static Object value(Random r, int depth) {
    int kind = r.nextInt(depth > 3 ? 6 : 8);
    return switch (kind) {
      case 0 -> r.nextLong() >> r.nextInt(64);
      case 1 -> finiteDouble(r);
      case 2 -> r.nextBoolean();
      case 3 -> null;
      case 4, 5 -> TEXTS[r.nextInt(TEXTS.length)] + TEXTS[r.nextInt(TEXTS.length)];
      case 6 -> object(r, depth);
      default -> {
        List<Object> list = new ArrayList<>();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
          list.add(value(r, depth + 1));
        }
        yield list;
      }
    };
  }

  private static double finiteDouble(Random r) {
    double d = Double.longBitsToDouble(r.nextLong());
    return Double.isFinite(d) ? d : r.nextGaussian();
  }

  private static String ndjson(ObjectMapper mapper, List<Map<String, Object>> items, Random r)
      throws Exception {
    StringBuilder sb = new StringBuilder();
    for (Map<String, Object> item : items) {
      sb.append(r.nextInt(4) == 0 ? "\n  \n" : "").append(mapper.writeValueAsString(item));
      sb.append(r.nextBoolean() ? "\r\n" : "\n");
    }
    return sb.toString();
  }

  // ---- mutated bodies: robust, deterministic, writable ----

  @Property
  void mutatedBodiesGiveNumberedItemsThatCanBeWritten(@ForAll("mutated") byte[] body) {
    List<JsonItems.Item> first;
    try {
      first = JsonItems.parse(body, body.length, MAX_ITEMS);
    } catch (JsonItems.TooManyItems e) {
      return;
    }
    List<JsonItems.Item> again = parse(body);
    assertThat(again).as("parsed twice: " + show(body)).isEqualTo(first);
    List<Object> lines = strictLines(body);
    for (int i = 0; i < first.size(); i++) {
      JsonItems.Item item = first.get(i);
      assertThat(item.index()).isEqualTo(i);
      assertThat(item.value() == null).as(show(body)).isNotEqualTo(item.rejection() == null);
      if (item.rejection() != null) {
        assertThat(item.rejection()).isNotBlank();
      } else {
        assertWritable(item.value(), body);
        if (lines != null) {
          assertThat(lines.get(i)).as("item %d of %s", i, show(body)).isEqualTo(item.value());
        }
      }
    }
  }

  /**
   * Each non-blank line's value as a strict reader (one value, nothing after it) finds it, or null
   * for a line that is not one; null for the whole list when the body is a sequence of values (then
   * it is not read by lines) or an array.
   */
  private static List<Object> strictLines(byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    if (text.strip().startsWith("[")) {
      return null;
    }
    try (com.fasterxml.jackson.databind.MappingIterator<Object> it =
        RAW.readerFor(Object.class).readValues(body)) {
      it.readAll();
      return null;
    } catch (Exception e) {
      // not a sequence of values: read by lines
    }
    List<Object> values = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      if (!line.isBlank()) {
        try {
          values.add(STRICT.readValue(line, Object.class));
        } catch (Exception e) {
          values.add(null);
        }
      }
    }
    return values;
  }

  @Provide
  Arbitrary<byte[]> mutated() {
    Arbitrary<Random> random = Arbitraries.randomValue(r -> new Random(r.nextLong()));
    Arbitrary<byte[]> fromModels =
        net.jqwik.api.Combinators.combine(models(), random)
            .as(
                (items, r) -> {
                  Object root = items.isEmpty() || r.nextBoolean() ? items : items.get(0);
                  return Mutations.mutate(r, json(root), 5);
                });
    Arbitrary<byte[]> fromBadLines =
        random.map(
            r -> {
              StringBuilder sb = new StringBuilder();
              for (int i = 0; i < 1 + r.nextInt(4); i++) {
                sb.append(BAD_LINES[r.nextInt(BAD_LINES.length)]).append('\n');
              }
              return Mutations.mutate(r, sb.toString().getBytes(StandardCharsets.UTF_8), 3);
            });
    Arbitrary<byte[]> noise = random.map(r -> Mutations.randomBytes(r, 64));
    return Arbitraries.frequencyOf(
        Tuple.of(5, fromModels), Tuple.of(2, fromBadLines), Tuple.of(1, noise));
  }

  /**
   * JsonConverter (as the worker's value converter) writes the value, and reads it back equal
   * (reading numbers as decimals, it makes -0.0 0.0).
   */
  private void assertWritable(Map<String, Object> value, byte[] body) {
    byte[] written = converter.fromConnectData("t", null, value);
    Object back = converter.toConnectData("t", written).value();
    assertThat(signless(back))
        .as("written and read back: " + show(body))
        .isEqualTo(signless(value));
  }

  /** The value with every -0.0 as 0.0. */
  private static Object signless(Object value) {
    if (value instanceof Double d) {
      return d + 0.0;
    } else if (value instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(k, signless(v)));
      return out;
    } else if (value instanceof List<?> list) {
      return list.stream().map(JsonItemsFuzzTest::signless).toList();
    }
    return value;
  }

  // ---- a bad NDJSON line never fails a good one ----

  @Property
  void badLinesNeverFailGoodOnes(@ForAll("mixed") List<Object> lines) throws Exception {
    StringBuilder body = new StringBuilder();
    for (Object line : lines) {
      body.append(line instanceof String bad ? bad : RAW.writeValueAsString(line)).append('\n');
    }
    List<JsonItems.Item> items = parse(body.toString());
    assertThat(items).as(body.toString()).hasSameSizeAs(lines);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i) instanceof String) {
        assertThat(items.get(i).rejection()).as(body + " item " + i).isNotNull();
      } else {
        assertThat(items.get(i).value()).as(body + " item " + i).isEqualTo(lines.get(i));
      }
    }
  }

  @Provide
  Arbitrary<List<Object>> mixed() {
    return Arbitraries.randomValue(
        r -> {
          List<Object> lines = new ArrayList<>();
          for (int i = r.nextInt(9); i > 0; i--) {
            if (r.nextInt(3) == 0) {
              lines.add(BAD_LINES[r.nextInt(BAD_LINES.length)]);
            } else {
              Map<String, Object> item = object(r, 0);
              item.remove("metrics");
              lines.add(item);
            }
          }
          return lines;
        });
  }

  private static byte[] json(Object value) {
    try {
      return RAW.writeValueAsBytes(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<JsonItems.Item> parse(String body) {
    return parse(body.getBytes(StandardCharsets.UTF_8));
  }

  private static List<JsonItems.Item> parse(byte[] body) {
    try {
      return JsonItems.parse(body, body.length, MAX_ITEMS);
    } catch (JsonItems.TooManyItems e) {
      throw new AssertionError(e);
    }
  }

  private static String show(byte[] body) {
    return new String(body, StandardCharsets.UTF_8);
  }
}
