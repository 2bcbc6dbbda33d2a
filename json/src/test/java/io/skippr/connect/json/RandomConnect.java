package io.skippr.connect.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.storage.ConverterType;

/**
 * Connect schemas and values drawn from a seeded random source, for the differential tests: every
 * type and logical type, nesting, optional and required, defaults, metadata, edge values (NaN,
 * -0.0, extremes, surrogates, 40-digit decimals) and, now and then, a value Kafka refuses to write.
 * Plain code rather than composed generators: a case costs microseconds, and a failing case is
 * printed whole.
 */
final class RandomConnect {
  private static final List<String> FIELD_NAMES =
      List.of("id", "name", "a", "b", "c", "é", "日本", "with space", "x.y", "\"q\"");
  private static final Schema[] LEAVES = {
    Schema.BOOLEAN_SCHEMA, Schema.INT8_SCHEMA, Schema.INT16_SCHEMA, Schema.INT32_SCHEMA,
    Schema.INT64_SCHEMA, Schema.FLOAT32_SCHEMA, Schema.FLOAT64_SCHEMA, Schema.STRING_SCHEMA,
    Schema.BYTES_SCHEMA, Date.SCHEMA, Time.SCHEMA, Timestamp.SCHEMA
  };
  private static final float[] FLOATS = {
    Float.NaN,
    Float.POSITIVE_INFINITY,
    Float.NEGATIVE_INFINITY,
    -0.0f,
    0.0f,
    Float.MIN_VALUE,
    Float.MAX_VALUE,
    -Float.MAX_VALUE,
    1.0000001f,
    0.1f,
    16777217f
  };
  private static final double[] DOUBLES = {
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    -0.0,
    0.0,
    Double.MIN_VALUE,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    0.1 + 0.2,
    1e22,
    1e23,
    9007199254740993.0,
    4.9e-324
  };
  private static final String[] STRINGS = {
    "",
    "a",
    "\"",
    "\\",
    "/",
    "\u0000",
    "\u001f",
    "\u007f",
    "é",
    "日本語",
    "😀",
    "\ud800",
    "\udfff",
    "\udc00\ud800",
    "\ud83d",
    "a\nb\tc",
    "{\"x\":1}",
    "null",
    "NaN"
  };

  final Random random;

  RandomConnect(long seed) {
    this.random = new Random(seed);
  }

  static Setup setup(Random r) {
    ConverterType[] roles = {ConverterType.KEY, ConverterType.VALUE, ConverterType.HEADER};
    int[] caches = {1, 2, 1000};
    return new Setup(
        r.nextBoolean(),
        r.nextBoolean() ? DecimalFormat.BASE64 : DecimalFormat.NUMERIC,
        r.nextBoolean(),
        caches[r.nextInt(caches.length)],
        null,
        roles[r.nextInt(roles.length)]);
  }

  Schema schema(int depth) {
    int kind = depth == 0 ? 0 : random.nextInt(9);
    Schema shape;
    if (kind <= 3) {
      shape = random.nextInt(8) == 0 ? Decimal.schema(random.nextInt(5)) : pick(LEAVES);
    } else if (kind == 4) {
      shape = SchemaBuilder.array(schema(depth - 1)).build();
    } else if (kind == 5) {
      shape = SchemaBuilder.map(keySchema(), schema(depth - 1)).build();
    } else {
      shape = struct(depth - 1);
    }
    return decorate(shape);
  }

  private Schema keySchema() {
    int kind = random.nextInt(6);
    if (kind < 3) {
      return Schema.STRING_SCHEMA;
    }
    return kind == 3 ? Schema.OPTIONAL_STRING_SCHEMA : pick(LEAVES);
  }

  private Schema struct(int depth) {
    List<String> names = new ArrayList<>(FIELD_NAMES);
    java.util.Collections.shuffle(names, random);
    SchemaBuilder struct = SchemaBuilder.struct();
    int fields = 1 + random.nextInt(4);
    for (int i = 0; i < fields; i++) {
      struct.field(names.get(i), schema(depth));
    }
    return struct.build();
  }

  /** Optional or not, a default now and then, metadata on schemas that are not logical. */
  private Schema decorate(Schema shape) {
    SchemaBuilder b = copy(shape);
    if (random.nextBoolean()) {
      b.optional();
    }
    if (shape.type() != Schema.Type.STRUCT && random.nextInt(6) == 0) {
      Object value = value(shape, false);
      if (value != null) {
        b.defaultValue(value);
      }
    }
    String text = string();
    switch (random.nextInt(10)) {
      case 1 -> b.name(shape.name() == null ? "rec." + text : shape.name());
      case 2 -> b.version(random.nextInt(7) - 3);
      case 3 -> b.doc(text);
      case 4 -> {
        if (shape.name() == null) {
          b.parameter("p" + text, text).parameter("q", "");
        }
      }
      default -> {
        // no metadata
      }
    }
    return b.build();
  }

  private static SchemaBuilder copy(Schema s) {
    SchemaBuilder b =
        switch (s.type()) {
          case ARRAY -> SchemaBuilder.array(s.valueSchema());
          case MAP -> SchemaBuilder.map(s.keySchema(), s.valueSchema());
          case STRUCT -> {
            SchemaBuilder struct = SchemaBuilder.struct();
            for (Field f : s.fields()) {
              struct.field(f.name(), f.schema());
            }
            yield struct;
          }
          default -> SchemaBuilder.type(s.type());
        };
    if (s.name() != null) {
      b.name(s.name());
    }
    if (s.parameters() != null) {
      b.parameters(s.parameters());
    }
    return b;
  }

  /** A value of the schema; with {@code wrong}, now and then a bad null or another class. */
  Object value(Schema schema, boolean wrong) {
    int roll = random.nextInt(40);
    if (roll < 4 && schema.isOptional()) {
      return null;
    }
    if (wrong && roll == 4) {
      return null;
    }
    if (wrong && roll == 5) {
      return wrongValue();
    }
    Object logical = schema.name() == null ? null : logical(schema, wrong && roll == 6);
    return logical != null ? logical : typed(schema, wrong);
  }

  private Object logical(Schema schema, boolean wrongScale) {
    return switch (schema.name()) {
      case Decimal.LOGICAL_NAME -> {
        int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
        yield new BigDecimal(bigInteger(), wrongScale ? scale + 1 : scale);
      }
      case Date.LOGICAL_NAME ->
          new java.util.Date((random.nextInt(200_001) - 100_000) * 86_400_000L);
      case Time.LOGICAL_NAME -> new java.util.Date(random.nextInt(86_400_000));
      case Timestamp.LOGICAL_NAME -> new java.util.Date(longValue());
      default -> null;
    };
  }

  private Object typed(Schema schema, boolean wrong) {
    return switch (schema.type()) {
      case BOOLEAN -> random.nextBoolean();
      case INT8 -> (byte) longValue();
      case INT16 -> (short) longValue();
      case INT32 -> (int) longValue();
      case INT64 -> longValue();
      case FLOAT32 -> random.nextInt(4) == 0 ? FLOATS[random.nextInt(FLOATS.length)] : floatValue();
      case FLOAT64 ->
          random.nextInt(4) == 0 ? DOUBLES[random.nextInt(DOUBLES.length)] : doubleValue();
      case STRING -> string();
      case BYTES -> random.nextInt(4) == 0 ? ByteBuffer.wrap(bytes()) : bytes();
      case ARRAY -> list(schema, wrong);
      case MAP -> map(schema, wrong);
      case STRUCT -> struct(schema, wrong);
    };
  }

  private List<Object> list(Schema schema, boolean wrong) {
    List<Object> list = new ArrayList<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      list.add(value(schema.valueSchema(), wrong));
    }
    return list;
  }

  private Map<Object, Object> map(Schema schema, boolean wrong) {
    Map<Object, Object> map = new HashMap<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      Object key = value(schema.keySchema(), false);
      map.put(key, value(schema.valueSchema(), wrong));
    }
    return map;
  }

  private Struct struct(Schema schema, boolean wrong) {
    Struct struct = new Struct(schema);
    for (Field field : schema.fields()) {
      boolean leaveToDefault = field.schema().defaultValue() != null && random.nextInt(4) == 0;
      Object value = leaveToDefault ? null : value(field.schema(), wrong);
      if (value != null) {
        try {
          struct.put(field, value);
        } catch (RuntimeException e) {
          // a wrong value Connect refuses to hold: the field stays empty
        }
      }
    }
    return struct;
  }

  private Object wrongValue() {
    Object[] wrong = {
      "x",
      5,
      5L,
      1.5,
      true,
      new byte[] {1},
      List.of(1),
      Map.of("k", 1),
      new BigDecimal("1.5"),
      new java.util.Date(0),
      new Struct(SchemaBuilder.struct().field("z", Schema.INT32_SCHEMA).build()).put("z", 1)
    };
    return wrong[random.nextInt(wrong.length)];
  }

  /** A value without a schema: Connect's Java types, and some that have no schema type. */
  Object schemaless(int depth) {
    int kind = random.nextInt(depth == 0 ? 14 : 18);
    return switch (kind) {
      case 0 -> longValue();
      case 1 -> (int) longValue();
      case 2 -> (short) longValue();
      case 3 -> (byte) longValue();
      case 4 -> random.nextInt(3) == 0 ? FLOATS[random.nextInt(FLOATS.length)] : floatValue();
      case 5 -> random.nextInt(3) == 0 ? DOUBLES[random.nextInt(DOUBLES.length)] : doubleValue();
      case 6 -> random.nextBoolean();
      case 7, 8 -> string();
      case 9 -> bytes();
      case 10 -> null;
      case 11 -> new BigDecimal("1.50");
      case 12 -> new java.util.Date(0);
      case 13 -> new Object();
      case 14, 15 -> {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          list.add(schemaless(depth - 1));
        }
        yield list;
      }
      default -> {
        Map<Object, Object> map = new HashMap<>();
        boolean stringKeys = kind == 16;
        for (int i = random.nextInt(4); i > 0; i--) {
          Object key = stringKeys ? string() : (Object) (random.nextInt(7) - 3);
          map.put(key, schemaless(depth - 1));
        }
        yield map;
      }
    };
  }

  private long longValue() {
    return switch (random.nextInt(5)) {
      case 0 -> random.nextInt(256) - 128;
      case 1 -> random.nextInt();
      case 2 ->
          new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 127, -128, 32767, 2147483647L}
              [random.nextInt(8)];
      default -> random.nextLong();
    };
  }

  private float floatValue() {
    return random.nextBoolean()
        ? Float.intBitsToFloat(random.nextInt())
        : (random.nextFloat() - 0.5f) * (float) Math.pow(10, random.nextInt(20) - 10);
  }

  private double doubleValue() {
    return random.nextBoolean()
        ? Double.longBitsToDouble(random.nextLong())
        : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
  }

  private BigInteger bigInteger() {
    return random.nextBoolean()
        ? BigInteger.valueOf(longValue())
        : new BigInteger(random.nextInt(140), random).subtract(BigInteger.TWO.pow(70));
  }

  String string() {
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(6);
    for (int i = 0; i < n; i++) {
      int kind = random.nextInt(4);
      if (kind == 0) {
        s.append(STRINGS[random.nextInt(STRINGS.length)]);
      } else if (kind == 1) {
        s.append((char) random.nextInt(0x10000));
      } else {
        s.append((char) ('a' + random.nextInt(26)));
      }
    }
    return s.toString();
  }

  private byte[] bytes() {
    byte[] bytes = new byte[random.nextInt(12)];
    random.nextBytes(bytes);
    return bytes;
  }

  private <T> T pick(T[] options) {
    return options[random.nextInt(options.length)];
  }
}
