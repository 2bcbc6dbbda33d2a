package io.skippr.connect.schema;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/** Small helpers over Connect schemas: type names, copies with another optionality. */
public final class Schemas {
  public static final Schema OPTIONAL_TIMESTAMP = Timestamp.builder().optional().build();
  public static final Schema OPTIONAL_DATE = Date.builder().optional().build();

  private Schemas() {}

  /**
   * The name used in contracts, flags and error messages: {@code boolean, int8, int16, int32,
   * int64, float, double, string, bytes, struct, array, map, timestamp, date, time, decimal}, or
   * the schema name for other named schemas.
   */
  public static String typeName(Schema schema) {
    String logical = logicalTypeName(schema);
    if (logical != null) {
      return logical;
    }
    return switch (schema.type()) {
      case FLOAT32 -> "float";
      case FLOAT64 -> "double";
      default -> schema.type().getName();
    };
  }

  /** The contract name of a Connect logical type, or null when the schema is not one. */
  public static String logicalTypeName(Schema schema) {
    String name = schema.name();
    if (name == null) {
      return null;
    }
    return switch (name) {
      case Timestamp.LOGICAL_NAME -> "timestamp";
      case Date.LOGICAL_NAME -> "date";
      case Time.LOGICAL_NAME -> "time";
      case Decimal.LOGICAL_NAME -> "decimal";
      default -> null;
    };
  }

  /** True for primitive types without a name (plain numbers, strings, ...). */
  public static boolean isPlain(Schema schema) {
    return schema.name() == null && schema.type().isPrimitive();
  }

  /**
   * The wider of two plain numeric types: integers widen to the larger integer, any mix with a
   * floating type to double (float with float stays float). Null when either is not numeric.
   */
  public static Schema.Type widerNumeric(Schema.Type a, Schema.Type b) {
    int rankA = integerRank(a);
    int rankB = integerRank(b);
    if (rankA > 0 && rankB > 0) {
      return rankA >= rankB ? a : b;
    }
    boolean numericA = rankA > 0 || a == Schema.Type.FLOAT32 || a == Schema.Type.FLOAT64;
    boolean numericB = rankB > 0 || b == Schema.Type.FLOAT32 || b == Schema.Type.FLOAT64;
    if (!numericA || !numericB) {
      return null;
    }
    return a == Schema.Type.FLOAT32 && b == Schema.Type.FLOAT32
        ? Schema.Type.FLOAT32
        : Schema.Type.FLOAT64;
  }

  private static int integerRank(Schema.Type type) {
    return switch (type) {
      case INT8 -> 1;
      case INT16 -> 2;
      case INT32 -> 3;
      case INT64 -> 4;
      default -> 0;
    };
  }

  /** The same schema with the given optionality (the schema itself when it already matches). */
  public static Schema withOptional(Schema schema, boolean optional) {
    if (schema.isOptional() == optional) {
      return schema;
    }
    SchemaBuilder builder = header(schema, Map.of());
    if (optional) {
      builder.optional();
    }
    return builder.build();
  }

  /** A builder carrying type, name, version, doc, parameters (plus extra) and children. */
  static SchemaBuilder header(Schema schema, Map<String, String> extraParameters) {
    SchemaBuilder builder =
        switch (schema.type()) {
          case ARRAY -> SchemaBuilder.array(schema.valueSchema());
          case MAP -> SchemaBuilder.map(schema.keySchema(), schema.valueSchema());
          default -> SchemaBuilder.type(schema.type());
        };
    if (schema.type() == Schema.Type.STRUCT) {
      for (Field field : schema.fields()) {
        builder.field(field.name(), field.schema());
      }
    }
    builder.name(schema.name()).version(schema.version()).doc(schema.doc());
    Map<String, String> parameters = new HashMap<>();
    if (schema.parameters() != null) {
      parameters.putAll(schema.parameters());
    }
    parameters.putAll(extraParameters);
    if (!parameters.isEmpty()) {
      builder.parameters(parameters);
    }
    return builder;
  }
}
