package io.skippr.connect.schema;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Infers Connect schemas from schemaless values (as {@code JsonConverter} with {@code
 * schemas.enable=false} produces them) and merges the schemas of many samples into one.
 *
 * <p>Every inferred schema is optional. Struct fields are sorted by name, so the same sample gives
 * the same schema whatever order its keys and records come in.
 */
public final class SchemaInference {
  private static final Schema BOOLEAN = Schema.OPTIONAL_BOOLEAN_SCHEMA;
  private static final Schema INT32 = Schema.OPTIONAL_INT32_SCHEMA;
  private static final Schema INT64 = Schema.OPTIONAL_INT64_SCHEMA;
  private static final Schema DOUBLE = Schema.OPTIONAL_FLOAT64_SCHEMA;
  private static final Schema STRING = Schema.OPTIONAL_STRING_SCHEMA;
  private static final Schema BYTES = Schema.OPTIONAL_BYTES_SCHEMA;

  private SchemaInference() {}

  /**
   * The schema of one value: booleans, integers (int32 when they fit, else int64), doubles, ISO
   * dates and date-times, epoch numbers under a time-like field name, strings, maps with string
   * keys as structs, lists as arrays (elements merged), null as a flagged optional string.
   *
   * @throws DataException for a value of a type JSON cannot produce
   */
  public static Schema infer(Object value) {
    return infer(value, null);
  }

  /** Like {@link #infer(Object)} for a value found under a field name (time-like names matter). */
  public static Schema infer(Object value, String fieldName) {
    if (value == null) {
      return SchemaMarkers.nullOnly();
    } else if (value instanceof Boolean) {
      return BOOLEAN;
    } else if (value instanceof String text) {
      return inferString(text);
    } else if (value instanceof Number number) {
      return inferNumber(number, fieldName);
    } else if (value instanceof Map<?, ?> map) {
      return inferMap(map);
    } else if (value instanceof List<?> list) {
      return inferList(list, fieldName);
    } else if (value instanceof Struct struct) {
      return Schemas.withOptional(struct.schema(), true);
    } else if (value instanceof java.util.Date) {
      return Schemas.OPTIONAL_TIMESTAMP;
    } else if (value instanceof byte[] || value instanceof ByteBuffer) {
      return BYTES;
    }
    throw new DataException("cannot infer a schema for a " + value.getClass().getName());
  }

  /** Infers the schema of every sample and merges them. */
  public static MergeResult inferAll(Iterable<?> samples) {
    Schema merged = null;
    for (Object sample : samples) {
      merged = mergeSchemas(merged, infer(sample));
    }
    Schema result = merged == null ? SchemaMarkers.nullOnly() : merged;
    return new MergeResult(result, SchemaMarkers.flags(result));
  }

  /**
   * Merges two inferred schemas: structs take the union of their fields, integers widen to int64
   * and numbers to double, dates widen to timestamps, a null-only placeholder takes the other type;
   * anything else becomes an optional string flagged as a type conflict.
   */
  public static MergeResult merge(Schema a, Schema b) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    Schema merged = mergeSchemas(a, b);
    return new MergeResult(merged, SchemaMarkers.flags(merged));
  }

  private static Schema inferString(String text) {
    if (TemporalValues.isIsoDate(text)) {
      return Schemas.OPTIONAL_DATE;
    }
    if (TemporalValues.isIsoDateTime(text)) {
      return Schemas.OPTIONAL_TIMESTAMP;
    }
    return STRING;
  }

  private static Schema inferNumber(Number number, String fieldName) {
    boolean integral =
        number instanceof Integer
            || number instanceof Long
            || number instanceof Short
            || number instanceof Byte
            || number instanceof BigInteger;
    if (TemporalValues.isTimeLikeName(fieldName)
        && TemporalValues.plausibleEpochMillis(number.doubleValue()) != null) {
      return Schemas.OPTIONAL_TIMESTAMP;
    }
    if (!integral) {
      return number instanceof BigDecimal decimal && isIntegral(decimal)
          ? integerSchema(decimal.toBigInteger())
          : DOUBLE;
    }
    return integerSchema(
        number instanceof BigInteger big ? big : BigInteger.valueOf(number.longValue()));
  }

  private static boolean isIntegral(BigDecimal decimal) {
    return decimal.scale() <= 0 || decimal.stripTrailingZeros().scale() <= 0;
  }

  private static Schema integerSchema(BigInteger value) {
    if (value.bitLength() < 32) {
      return INT32;
    }
    return value.bitLength() < 64 ? INT64 : DOUBLE;
  }

  private static Schema inferMap(Map<?, ?> map) {
    boolean stringKeys = map.keySet().stream().allMatch(k -> k instanceof String);
    if (!stringKeys) {
      Schema keys = null;
      Schema values = null;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        keys = mergeSchemas(keys, infer(entry.getKey()));
        values = mergeSchemas(values, infer(entry.getValue()));
      }
      return SchemaBuilder.map(keys, values).optional().build();
    }
    SchemaBuilder struct = SchemaBuilder.struct().optional();
    for (Map.Entry<?, ?> entry : new TreeMap<>(map).entrySet()) {
      String name = (String) entry.getKey();
      struct.field(name, infer(entry.getValue(), name));
    }
    return struct.build();
  }

  private static Schema inferList(List<?> list, String fieldName) {
    Schema element = null;
    for (Object item : list) {
      element = mergeSchemas(element, infer(item, fieldName));
    }
    return SchemaBuilder.array(element == null ? SchemaMarkers.nullOnly() : element)
        .optional()
        .build();
  }

  static Schema mergeSchemas(Schema a, Schema b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    if (a.equals(b) || SchemaMarkers.isNullOnly(b)) {
      return Schemas.withOptional(a, true);
    }
    if (SchemaMarkers.isNullOnly(a)) {
      return Schemas.withOptional(b, true);
    }
    if (a.type() == b.type() && Schemas.isPlain(a) && Schemas.isPlain(b)) {
      return mergeSamePlainType(a, b);
    }
    Schema container = a.type() == b.type() ? mergeContainers(a, b) : null;
    return container != null ? container : mergeDifferent(a, b);
  }

  /** Merges two unnamed structs, arrays or maps; null for anything else. */
  private static Schema mergeContainers(Schema a, Schema b) {
    if (a.name() != null || b.name() != null) {
      return null;
    }
    return switch (a.type()) {
      case STRUCT -> mergeStructs(a, b);
      case ARRAY ->
          SchemaBuilder.array(mergeSchemas(a.valueSchema(), b.valueSchema())).optional().build();
      case MAP ->
          SchemaBuilder.map(
                  mergeSchemas(a.keySchema(), b.keySchema()),
                  mergeSchemas(a.valueSchema(), b.valueSchema()))
              .optional()
              .build();
      default -> null;
    };
  }

  private static Schema mergeSamePlainType(Schema a, Schema b) {
    if (a.type() != Schema.Type.STRING) {
      return Schemas.withOptional(a, true);
    }
    SortedSet<String> seen = new TreeSet<>(SchemaMarkers.conflictTypes(a));
    seen.addAll(SchemaMarkers.conflictTypes(b));
    return seen.isEmpty() ? STRING : SchemaMarkers.conflict(seen);
  }

  private static Schema mergeDifferent(Schema a, Schema b) {
    if (Schemas.isPlain(a) && Schemas.isPlain(b)) {
      Schema.Type wider = Schemas.widerNumeric(a.type(), b.type());
      if (wider != null) {
        return SchemaBuilder.type(wider).optional().build();
      }
    }
    if (isDateAndTimestamp(a, b)) {
      return Schemas.OPTIONAL_TIMESTAMP;
    }
    SortedSet<String> seen = new TreeSet<>();
    seen.addAll(typesSeen(a));
    seen.addAll(typesSeen(b));
    return SchemaMarkers.conflict(seen);
  }

  private static boolean isDateAndTimestamp(Schema a, Schema b) {
    String la = Schemas.logicalTypeName(a);
    String lb = Schemas.logicalTypeName(b);
    return la != null
        && lb != null
        && ((la.equals("date") && lb.equals("timestamp"))
            || (la.equals("timestamp") && lb.equals("date")));
  }

  private static SortedSet<String> typesSeen(Schema schema) {
    SortedSet<String> conflict = SchemaMarkers.conflictTypes(schema);
    return conflict.isEmpty() ? new TreeSet<>(List.of(Schemas.typeName(schema))) : conflict;
  }

  private static Schema mergeStructs(Schema a, Schema b) {
    TreeMap<String, Schema> fields = new TreeMap<>();
    for (Field field : a.fields()) {
      fields.put(field.name(), field.schema());
    }
    for (Field field : b.fields()) {
      fields.merge(field.name(), field.schema(), SchemaInference::mergeSchemas);
    }
    List<Map.Entry<String, Schema>> ordered = new ArrayList<>(fields.entrySet());
    SchemaBuilder struct = SchemaBuilder.struct().optional();
    for (Map.Entry<String, Schema> entry : ordered) {
      struct.field(entry.getKey(), Schemas.withOptional(entry.getValue(), true));
    }
    return struct.build();
  }
}
