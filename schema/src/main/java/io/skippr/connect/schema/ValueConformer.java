package io.skippr.connect.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Turns a value (schemaless or of another schema) into a Connect value of exactly the given schema.
 *
 * <p>Conversions: integers to any integer type they fit in and to floating types; numbers, booleans
 * and (as JSON text) maps and lists to string, since inference turns type conflicts into strings;
 * ISO-8601 strings to Timestamp and Date; epoch seconds or milliseconds to Timestamp; maps and
 * structs to structs by field name. Missing or null fields become null when optional (or their
 * default). A field the schema does not have is an error, as is any other mismatch; the {@link
 * DataException} message starts with the field path, e.g. {@code items[3].price: expected double,
 * got string "abc"}.
 */
public final class ValueConformer {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_SHOWN_CHARS = 40;

  private ValueConformer() {}

  /** Conforms the value to the schema; see the class description. */
  public static Object conform(Object value, Schema schema) {
    return conform(value, schema, "");
  }

  static Object conform(Object value, Schema schema, String path) {
    if (value == null) {
      if (schema.defaultValue() != null) {
        return schema.defaultValue();
      }
      if (schema.isOptional()) {
        return null;
      }
      throw fail(path, "required value is missing");
    }
    String logical = Schemas.logicalTypeName(schema);
    if (logical != null) {
      return LogicalValues.conform(value, schema, logical, path);
    }
    return switch (schema.type()) {
      case STRUCT -> conformStruct(value, schema, path);
      case ARRAY -> conformArray(value, schema, path);
      case MAP -> conformMap(value, schema, path);
      case STRING -> conformString(value, schema, path);
      case BOOLEAN -> expect(value instanceof Boolean, value, schema, path);
      case BYTES -> conformBytes(value, schema, path);
      case FLOAT32, FLOAT64 -> conformFloating(value, schema, path);
      default -> conformInteger(value, schema, path);
    };
  }

  private static Object conformStruct(Object value, Schema schema, String path) {
    if (value instanceof Struct struct) {
      if (struct.schema().equals(schema)) {
        return struct;
      }
      return conformFields(asMap(struct), schema, path);
    }
    if (value instanceof Map<?, ?> map) {
      return conformFields(map, schema, path);
    }
    throw mismatch(value, schema, path);
  }

  private static Struct conformFields(Map<?, ?> map, Schema schema, String path) {
    for (Object key : map.keySet()) {
      if (!(key instanceof String name) || schema.field(name) == null) {
        throw fail(child(path, String.valueOf(key)), "field is not in the schema");
      }
    }
    Struct struct = new Struct(schema);
    for (Field field : schema.fields()) {
      String fieldPath = child(path, field.name());
      Object conformed = conform(map.get(field.name()), field.schema(), fieldPath);
      // Unnamed: for a named field Connect formats an error location on every put.
      struct.put(new Field(null, field.index(), field.schema()), conformed);
    }
    return struct;
  }

  private static Map<String, Object> asMap(Struct struct) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (Field field : struct.schema().fields()) {
      Object fieldValue = struct.get(field);
      if (fieldValue != null) {
        map.put(field.name(), fieldValue);
      }
    }
    return map;
  }

  private static List<Object> conformArray(Object value, Schema schema, String path) {
    if (!(value instanceof List<?> list)) {
      throw mismatch(value, schema, path);
    }
    List<Object> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      out.add(conform(list.get(i), schema.valueSchema(), path + "[" + i + "]"));
    }
    return out;
  }

  private static Map<Object, Object> conformMap(Object value, Schema schema, String path) {
    if (!(value instanceof Map<?, ?> map)) {
      throw mismatch(value, schema, path);
    }
    Map<Object, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String entryPath = path + "[" + entry.getKey() + "]";
      out.put(
          conform(entry.getKey(), schema.keySchema(), entryPath),
          conform(entry.getValue(), schema.valueSchema(), entryPath));
    }
    return out;
  }

  private static String conformString(Object value, Schema schema, String path) {
    if (value instanceof String text) {
      return text;
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString();
    }
    if (value instanceof Map<?, ?> || value instanceof List<?>) {
      try {
        return JSON.writeValueAsString(value);
      } catch (JsonProcessingException e) {
        throw fail(path, "cannot render " + describe(value) + " as JSON text");
      }
    }
    throw mismatch(value, schema, path);
  }

  private static Object conformBytes(Object value, Schema schema, String path) {
    if (value instanceof byte[] || value instanceof ByteBuffer) {
      return value;
    }
    throw mismatch(value, schema, path);
  }

  private static Object conformFloating(Object value, Schema schema, String path) {
    if (!(value instanceof Number number)) {
      throw mismatch(value, schema, path);
    }
    double d = number.doubleValue();
    return schema.type() == Schema.Type.FLOAT32 ? Float.valueOf((float) d) : Double.valueOf(d);
  }

  private static Object conformInteger(Object value, Schema schema, String path) {
    if (value instanceof Long || value instanceof Integer) {
      return conformLong(((Number) value).longValue(), value, schema, path);
    }
    BigInteger integer = integralValue(value);
    if (integer == null) {
      throw mismatch(value, schema, path);
    }
    int bits =
        switch (schema.type()) {
          case INT8 -> 8;
          case INT16 -> 16;
          case INT32 -> 32;
          default -> 64;
        };
    if (integer.bitLength() >= bits) {
      throw mismatch(value, schema, path);
    }
    return switch (schema.type()) {
      case INT8 -> integer.byteValue();
      case INT16 -> integer.shortValue();
      case INT32 -> integer.intValue();
      default -> integer.longValue();
    };
  }

  /** {@link #conformInteger} without a BigInteger for the integers JSON mostly holds. */
  private static Object conformLong(long number, Object value, Schema schema, String path) {
    return switch (schema.type()) {
      case INT8 -> {
        if (number != (byte) number) {
          throw mismatch(value, schema, path);
        }
        yield (byte) number;
      }
      case INT16 -> {
        if (number != (short) number) {
          throw mismatch(value, schema, path);
        }
        yield (short) number;
      }
      case INT32 -> {
        if (number != (int) number) {
          throw mismatch(value, schema, path);
        }
        yield (int) number;
      }
      default -> number;
    };
  }

  /** The exact integer a number holds (whole doubles included), or null. */
  static BigInteger integralValue(Object value) {
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return BigInteger.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigInteger big) {
      return big;
    }
    BigDecimal decimal = decimalValue(value);
    if (decimal == null) {
      return null;
    }
    try {
      return decimal.toBigIntegerExact();
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private static BigDecimal decimalValue(Object value) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }
    return null;
  }

  private static Object expect(boolean ok, Object value, Schema schema, String path) {
    if (!ok) {
      throw mismatch(value, schema, path);
    }
    return value;
  }

  static DataException mismatch(Object value, Schema schema, String path) {
    String expected =
        Decimal.LOGICAL_NAME.equals(schema.name())
            ? "decimal(scale " + schema.parameters().get(Decimal.SCALE_FIELD) + ")"
            : Schemas.typeName(schema);
    return fail(path, "expected " + expected + ", got " + describe(value));
  }

  static DataException fail(String path, String reason) {
    return new DataException((path.isEmpty() ? "(root)" : path) + ": " + reason);
  }

  /** A short description of a value for error messages: its JSON kind and a bounded rendering. */
  public static String describe(Object value) {
    if (value instanceof String text) {
      String shown =
          text.length() > MAX_SHOWN_CHARS ? text.substring(0, MAX_SHOWN_CHARS) + "..." : text;
      return "string \"" + shown + "\"";
    }
    if (value instanceof Map<?, ?>) {
      return "object";
    }
    if (value instanceof List<?>) {
      return "array";
    }
    if (value instanceof Struct) {
      return "struct";
    }
    if (value instanceof Boolean) {
      return "boolean " + value;
    }
    if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
      return "double " + value;
    }
    if (value instanceof Number) {
      return "integer " + value;
    }
    return value.getClass().getSimpleName();
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
