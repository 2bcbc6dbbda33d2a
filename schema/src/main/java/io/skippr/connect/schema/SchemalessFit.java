package io.skippr.connect.schema;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Checks a schemaless value against the inferred schema of its table or stream and evolves the
 * schema when the value needs it (the rule of {@link InferredSchema}): new keys become new optional
 * fields (inferred, appended in name order), a field only ever null takes the first concrete type,
 * and numbers widen int32 → int64 → double. A value of another kind is rejected with its field
 * path, except in a column that already holds several kinds as text (a conflict the first object
 * brought): that one takes any value, as the inference did.
 *
 * <p>Walking a value that fits allocates nothing and returns the same schema instance; whether a
 * string really is a date or timestamp is left to {@code ValueConformer}, which parses it anyway.
 */
public final class SchemalessFit {
  private SchemalessFit() {}

  /**
   * Returns {@code current} when the value fits it, else the evolved schema.
   *
   * @throws DataException when the value cannot fit: {@code field a.b: expected …, got …}
   */
  public static Schema fit(Schema current, Object value, String path, String fieldName) {
    if (value == null) {
      return current;
    }
    if (SchemaMarkers.isNullOnly(current)) {
      return SchemaInference.infer(value, fieldName);
    }
    switch (current.type()) {
      case STRUCT:
        return fitStruct(current, value, path);
      case ARRAY:
        return fitArray(current, value, path, fieldName);
      case MAP:
        return fitMap(current, value, path);
      case INT8:
      case INT16:
      case INT32:
      case INT64:
      case FLOAT32:
      case FLOAT64:
        return current.name() == null ? fitNumber(current, value, path) : current;
      case STRING:
        // A conflict column holds values of several kinds as text: it takes any kind again.
        return expect(
            current,
            value instanceof String || !SchemaMarkers.conflictTypes(current).isEmpty(),
            value,
            path);
      case BOOLEAN:
        return expect(current, value instanceof Boolean, value, path);
      case BYTES:
        return current.name() == null
            ? expect(current, value instanceof byte[] || value instanceof ByteBuffer, value, path)
            : current;
      default:
        throw reject(path, "unsupported type " + current.type());
    }
  }

  private static Schema fitStruct(Schema current, Object value, String path) {
    if (!(value instanceof Map<?, ?> map)) {
      if (value instanceof Struct) {
        throw reject(path, "expected an object, got a struct with a schema");
      }
      return expect(current, false, value, path);
    }
    Schema[] evolved = null;
    TreeMap<String, Object> added = null;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!(entry.getKey() instanceof String name)) {
        throw reject(path, "object key " + entry.getKey() + " is not a string");
      }
      Field field = current.field(name);
      if (field == null) {
        added = added == null ? new TreeMap<>() : added;
        added.put(name, entry.getValue());
        continue;
      }
      Schema next = fit(field.schema(), entry.getValue(), child(path, name), name);
      if (next != field.schema()) {
        evolved = evolved == null ? new Schema[current.fields().size()] : evolved;
        evolved[field.index()] = next;
      }
    }
    if (evolved == null && added == null) {
      return current;
    }
    return rebuild(current, evolved, added);
  }

  private static Schema rebuild(Schema current, Schema[] evolved, TreeMap<String, Object> added) {
    SchemaBuilder builder = SchemaBuilder.struct().name(current.name()).version(current.version());
    if (current.isOptional()) {
      builder.optional();
    }
    for (Field field : current.fields()) {
      Schema changed = evolved == null ? null : evolved[field.index()];
      builder.field(field.name(), changed != null ? changed : field.schema());
    }
    if (added != null) {
      for (Map.Entry<String, Object> entry : added.entrySet()) {
        builder.field(entry.getKey(), SchemaInference.infer(entry.getValue(), entry.getKey()));
      }
    }
    return builder.build();
  }

  private static Schema fitArray(Schema current, Object value, String path, String fieldName) {
    if (!(value instanceof List<?> list)) {
      return expect(current, false, value, path);
    }
    Schema element = current.valueSchema();
    for (int i = 0, n = list.size(); i < n; i++) {
      element = fit(element, list.get(i), path + "[" + i + "]", fieldName);
    }
    if (element == current.valueSchema()) {
      return current;
    }
    SchemaBuilder builder = SchemaBuilder.array(element);
    return current.isOptional() ? builder.optional().build() : builder.build();
  }

  private static Schema fitMap(Schema current, Object value, String path) {
    if (!(value instanceof Map<?, ?> map)) {
      return expect(current, false, value, path);
    }
    Schema keys = current.keySchema();
    Schema values = current.valueSchema();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String entryPath = path + "[" + entry.getKey() + "]";
      keys = fit(keys, entry.getKey(), entryPath, null);
      values = fit(values, entry.getValue(), entryPath, null);
    }
    if (keys == current.keySchema() && values == current.valueSchema()) {
      return current;
    }
    SchemaBuilder builder = SchemaBuilder.map(keys, values);
    return current.isOptional() ? builder.optional().build() : builder.build();
  }

  private static Schema fitNumber(Schema current, Object value, String path) {
    if (!(value instanceof Number number)) {
      return expect(current, false, value, path);
    }
    if (current.type() == Schema.Type.FLOAT64) {
      return current; // the widest: no need to classify the number
    }
    Schema.Type wider = Schemas.widerNumeric(current.type(), numberType(number));
    if (wider == current.type()) {
      return current;
    }
    SchemaBuilder builder = SchemaBuilder.type(wider);
    return current.isOptional() ? builder.optional().build() : builder.build();
  }

  /** The narrowest type inference gives the number: int32, int64 or double. */
  private static Schema.Type numberType(Number number) {
    if (number instanceof Integer || number instanceof Short || number instanceof Byte) {
      return Schema.Type.INT32;
    }
    if (number instanceof Long l) {
      return l == l.intValue() ? Schema.Type.INT32 : Schema.Type.INT64;
    }
    BigInteger integer = null;
    if (number instanceof BigInteger big) {
      integer = big;
    } else if (number instanceof BigDecimal decimal
        && (decimal.scale() <= 0 || decimal.stripTrailingZeros().scale() <= 0)) {
      integer = decimal.toBigInteger();
    }
    if (integer == null || integer.bitLength() >= 64) {
      return Schema.Type.FLOAT64;
    }
    return integer.bitLength() < 32 ? Schema.Type.INT32 : Schema.Type.INT64;
  }

  private static Schema expect(Schema current, boolean ok, Object value, String path) {
    if (ok) {
      return current;
    }
    throw reject(path, "expected " + describe(current) + ", got " + describe(value));
  }

  /** The error for a value at {@code path} that cannot fit: {@code field a.b: reason}. */
  public static DataException reject(String path, String reason) {
    return new DataException("field " + (path.isEmpty() ? "value" : path) + ": " + reason);
  }

  private static String describe(Schema schema) {
    return Schemas.typeName(schema);
  }

  private static String describe(Object value) {
    if (value instanceof String text) {
      return "string \"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"";
    } else if (value instanceof Map<?, ?>) {
      return "object";
    } else if (value instanceof List<?>) {
      return "array";
    } else if (value instanceof Boolean) {
      return "boolean " + value;
    } else if (value instanceof Number) {
      return "number " + value;
    }
    return value.getClass().getSimpleName();
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
