package io.skippr.connect.lake.convert;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Schemaless record values of hostile shape, as a converter without schemas can hand them to the
 * sink: deep nesting, thousands of fields, field names that differ only in case or in characters
 * readers treat specially, types that change from record to record, huge strings, NaN and
 * infinities, nulls everywhere, and values no JSON converter produces.
 */
public final class HostileInput {
  /** Names that collide in readers, clash with the sink's columns, or are hard to write. */
  private static final List<String> NAMES =
      List.of(
          "id",
          "ID",
          "Id",
          "name",
          "Name",
          "a.b",
          "a b",
          "a\tb",
          "",
          " ",
          "\u0000",
          "__offset",
          "__topic",
          "value",
          "e\u0301",
          "\u00e9",
          "a/b",
          "a\"b",
          "'",
          "\\",
          "1",
          "-",
          "ts",
          "created_at",
          "x".repeat(300),
          "\uffff",
          "\ud7ff");

  /** Rows with the Kafka position columns, so a reader can tell which records landed. */
  public static final FormatConfig FORMAT =
      new FormatConfig(
          FormatConfig.Codec.SNAPPY,
          FormatConfig.DEFAULT_ROW_GROUP_BYTES,
          true,
          false,
          FormatConfig.NullValues.IGNORE,
          FormatConfig.TOPIC_PLACEHOLDER);

  private HostileInput() {}

  /** A schemaless record of topic {@code orders}, partition 0. */
  public static SinkRecord record(long offset, Object value) {
    return new SinkRecord(
        "orders",
        0,
        null,
        null,
        null,
        value,
        offset,
        1_000_000L + offset,
        TimestampType.CREATE_TIME,
        List.of(),
        "orders",
        0,
        offset);
  }

  /**
   * What became of one record: its row, why it was rejected, or neither (a tombstone, ignored).
   *
   * @param row the row, or null
   * @param rejected the reason, or null
   */
  public record Verdict(long offset, LakeRow row, String rejected) {}

  /** What a fresh converter makes of each record of the batch, offsets from 0. */
  public static List<Verdict> verdicts(Batch values) {
    List<Object> batch = values.values();
    LakeRowConverter converter = new LakeRowConverter(FORMAT);
    List<Verdict> verdicts = new ArrayList<>();
    for (int offset = 0; offset < batch.size(); offset++) {
      try {
        verdicts.add(
            new Verdict(offset, converter.convert(record(offset, batch.get(offset))), null));
      } catch (RecordRejectedException e) {
        verdicts.add(new Verdict(offset, null, e.getMessage()));
      }
    }
    return verdicts;
  }

  /**
   * Values for consecutive offsets of one partition, from offset 0. Shown by their shape: a value
   * thousands of levels deep or of megabytes is more than a report can print.
   */
  public record Batch(List<Object> values) {
    @Override
    public String toString() {
      return values.stream().map(HostileInput::shape).toList().toString();
    }
  }

  /** A batch of one to eight values. */
  public static Batch batch(Random random) {
    List<Object> batch = new ArrayList<>();
    int size = 1 + random.nextInt(8);
    for (int i = 0; i < size; i++) {
      batch.add(value(random));
    }
    return new Batch(batch);
  }

  /** What a value looks like: its type, size and depth. */
  static String shape(Object value) {
    if (value instanceof Map<?, ?> map) {
      return "object(" + map.size() + " fields, " + depth(value) + " deep)";
    } else if (value instanceof List<?> list) {
      return "list(" + list.size() + " items, " + depth(value) + " deep)";
    } else if (value instanceof String text) {
      return text.length() > 40 ? "string(" + text.length() + " chars)" : '"' + text + '"';
    }
    return value == null ? "null" : value.getClass().getSimpleName() + "(" + value + ")";
  }

  private static int depth(Object value) {
    int deepest = 0;
    Object level = value;
    while (level instanceof Map<?, ?> || level instanceof List<?>) {
      deepest++;
      Collection<?> items = level instanceof Map<?, ?> map ? map.values() : (List<?>) level;
      level =
          items.stream()
              .filter(i -> i instanceof Map || i instanceof List)
              .findFirst()
              .orElse(null);
    }
    return deepest;
  }

  /** One record value. */
  static Object value(Random random) {
    return switch (random.nextInt(10)) {
      case 0 -> deep(random, 1 + random.nextInt(random.nextInt(8) == 0 ? 3000 : 120));
      case 1 -> wide(random, random.nextInt(random.nextInt(20) == 0 ? 5000 : 300));
      case 2 -> colliding(random);
      case 3 -> any(random, 2); // not always an object: a list, a number, a string, null
      default -> object(random, 3);
    };
  }

  static Map<String, Object> object(Random random, int depth) {
    Map<String, Object> object = new HashMap<>();
    int fields = random.nextInt(7);
    for (int i = 0; i < fields; i++) {
      object.put(name(random), any(random, depth - 1));
    }
    return object;
  }

  static Object any(Random random, int depth) {
    int kind = random.nextInt(depth > 0 ? 16 : 13);
    return switch (kind) {
      case 0, 1 -> null;
      case 2 -> random.nextBoolean();
      case 3 -> random.nextInt();
      case 4 -> random.nextLong();
      case 5 -> special(random);
      case 6 ->
          new BigDecimal(new BigInteger(random.nextInt(400) + 1, random), random.nextInt(60) - 20);
      case 7 -> text(random);
      case 8 -> random.nextInt(3) == 0 ? "2024-05-01T07:08:09.010Z" : "2024-13-45";
      case 9 -> bytes(random);
      case 10 -> odd(random);
      case 11, 12 -> random.nextInt(100);
      case 13 -> object(random, depth);
      default -> list(random, depth);
    };
  }

  private static Object special(Random random) {
    double[] specials = {
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      -0.0,
      Double.MIN_VALUE,
      Double.MAX_VALUE,
      1e308,
      0.1
    };
    return random.nextBoolean()
        ? specials[random.nextInt(specials.length)]
        : (Object) (float) specials[random.nextInt(specials.length)];
  }

  /** Values of types JSON converters do not produce, which other converters may. */
  private static Object odd(Random random) {
    return switch (random.nextInt(7)) {
      case 0 -> (short) random.nextInt();
      case 1 -> (byte) random.nextInt();
      case 2 -> BigInteger.TWO.pow(random.nextInt(200));
      case 3 -> new java.util.Date(random.nextLong() % 4_000_000_000_000L);
      case 4 -> 'c';
      case 5 -> Map.of(1, "an integer key");
      default -> new Object[] {1, "a"};
    };
  }

  private static List<Object> list(Random random, int depth) {
    List<Object> list = new ArrayList<>();
    int size = random.nextInt(5);
    boolean mixed = random.nextInt(3) == 0;
    Object first = any(random, depth - 1);
    for (int i = 0; i < size; i++) {
      list.add(mixed ? any(random, depth - 1) : first);
    }
    return list;
  }

  private static String text(Random random) {
    int length = random.nextInt(500) == 0 ? 1 + random.nextInt(1 << 20) : random.nextInt(40);
    char[] chars = new char[length];
    boolean ascii = length > 1000 || random.nextBoolean();
    for (int i = 0; i < length; i++) {
      chars[i] = (char) (ascii ? 32 + random.nextInt(95) : random.nextInt(0xd800));
    }
    return new String(chars);
  }

  private static byte[] bytes(Random random) {
    byte[] bytes = new byte[random.nextInt(64)];
    random.nextBytes(bytes);
    return bytes;
  }

  static String name(Random random) {
    if (random.nextInt(3) > 0) {
      return NAMES.get(random.nextInt(NAMES.size()));
    }
    char[] chars = new char[random.nextInt(12)];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = (char) random.nextInt(0xd800);
    }
    return new String(chars);
  }

  /** {@code {"a":{"a":…}}}, with lists between some levels. */
  public static Object deep(Random random, int depth) {
    Object value = random.nextBoolean() ? 1 : "leaf";
    for (int i = 0; i < depth; i++) {
      value = random.nextInt(5) == 0 ? List.of(value) : Map.of("a", value);
    }
    return value;
  }

  static Map<String, Object> wide(Random random, int fields) {
    Map<String, Object> wide = new LinkedHashMap<>();
    boolean unique = random.nextBoolean();
    for (int i = 0; i < fields; i++) {
      String name = unique ? "f" + random.nextInt(1 << 20) : "f" + i;
      wide.put(name, random.nextInt(4) == 0 ? null : any(random, 0));
    }
    return wide;
  }

  /** Names that differ only in case or a trailing character. */
  static Map<String, Object> colliding(Random random) {
    Map<String, Object> object = new HashMap<>();
    String base = NAMES.get(random.nextInt(5));
    for (String name :
        List.of(base, base.toUpperCase(), base.toLowerCase(), base + " ", base + ".")) {
      if (random.nextBoolean()) {
        object.put(name, any(random, 1));
      }
    }
    return object;
  }
}
