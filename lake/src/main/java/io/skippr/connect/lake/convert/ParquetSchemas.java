package io.skippr.connect.lake.convert;

import io.skippr.connect.common.Sha256;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * Maps Connect schemas to Parquet schemas.
 *
 * <ul>
 *   <li>INT8/INT16 → INT32 with INT(8|16, signed); INT32, INT64, FLOAT32 → FLOAT, FLOAT64 → DOUBLE,
 *       BOOLEAN, STRING → BINARY (STRING), BYTES → BINARY;
 *   <li>Timestamp → INT64 TIMESTAMP(MILLIS, UTC); Date → INT32 DATE; Time → INT32 TIME(MILLIS,
 *       local: a time of day, not an instant);
 *   <li>Decimal → DECIMAL(precision, scale) stored as INT32 (precision ≤ 9), INT64 (≤ 18) or a
 *       fixed-length byte array; the precision comes from the {@code connect.decimal.precision}
 *       parameter, else {@link #DEFAULT_DECIMAL_PRECISION};
 *   <li>Struct → group; Array → 3-level LIST ({@code list.element}); Map → MAP ({@code
 *       key_value.key/value}, keys required).
 * </ul>
 *
 * Optional Connect schemas become optional Parquet fields, required ones required.
 */
public final class ParquetSchemas {
  /** Parameter Debezium and others set on Decimal schemas. */
  public static final String DECIMAL_PRECISION_PARAM = "connect.decimal.precision";

  /**
   * Precision of a Decimal without {@link #DECIMAL_PRECISION_PARAM}: the widest most engines read.
   */
  public static final int DEFAULT_DECIMAL_PRECISION = 38;

  /** Name of the Parquet message (root group). */
  public static final String MESSAGE_NAME = "row";

  private ParquetSchemas() {}

  /**
   * The Parquet schema of a row schema.
   *
   * @throws DataException when the schema is not a struct or holds a type Parquet cannot store (an
   *     empty struct, a decimal with a negative scale or a scale above its precision)
   */
  public static MessageType toMessageType(Schema rowSchema) {
    if (rowSchema.type() != Schema.Type.STRUCT) {
      throw new DataException("a row schema must be a struct, got " + rowSchema.type());
    }
    return new MessageType(MESSAGE_NAME, fields(rowSchema, ""));
  }

  /** Hex sha256 of the canonical form of the row schema's Parquet schema. */
  public static String fingerprint(Schema rowSchema) {
    return fingerprint(toMessageType(rowSchema));
  }

  /** The fingerprint of a file's Parquet schema, as {@link #fingerprint(Schema)} gives it. */
  public static String fingerprint(MessageType schema) {
    StringBuilder canonical = new StringBuilder();
    canonical(schema, canonical);
    return Sha256.hex(canonical.toString());
  }

  /** Decimal precision of a Decimal schema: its parameter, else the default. */
  public static int decimalPrecision(Schema decimal) {
    String value =
        decimal.parameters() == null ? null : decimal.parameters().get(DECIMAL_PRECISION_PARAM);
    if (value == null) {
      return DEFAULT_DECIMAL_PRECISION;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new DataException(
          "decimal parameter " + DECIMAL_PRECISION_PARAM + " is not a number: " + value, e);
    }
  }

  /** Decimal scale of a Decimal schema. */
  public static int decimalScale(Schema decimal) {
    String value =
        decimal.parameters() == null ? null : decimal.parameters().get(Decimal.SCALE_FIELD);
    if (value == null) {
      throw new DataException("decimal schema without the '" + Decimal.SCALE_FIELD + "' parameter");
    }
    return Integer.parseInt(value.trim());
  }

  /** Bytes of a fixed-length two's complement array that holds every value of the precision. */
  public static int decimalBytes(int precision) {
    return (BigInteger.TEN.pow(precision).bitLength() + 1 + 7) / 8;
  }

  private static List<Type> fields(Schema struct, String path) {
    if (struct.fields().isEmpty()) {
      throw new DataException(
          "struct "
              + (path.isEmpty() ? "<row>" : path)
              + " has no fields; Parquet cannot store it");
    }
    List<Type> types = new ArrayList<>(struct.fields().size());
    for (Field field : struct.fields()) {
      types.add(type(field.name(), field.schema(), repetition(field.schema()), join(path, field)));
    }
    return types;
  }

  private static Type type(String name, Schema schema, Repetition repetition, String path) {
    switch (schema.type()) {
      case STRUCT:
        return new GroupType(repetition, name, fields(schema, path));
      case ARRAY:
        return Types.list(repetition)
            .element(
                type(
                    "element", schema.valueSchema(), repetition(schema.valueSchema()), path + "[]"))
            .named(name);
      case MAP:
        return Types.map(repetition)
            .key(type("key", schema.keySchema(), Repetition.REQUIRED, path + ".key"))
            .value(
                type(
                    "value",
                    schema.valueSchema(),
                    repetition(schema.valueSchema()),
                    path + ".value"))
            .named(name);
      default:
        return primitive(name, schema, repetition, path);
    }
  }

  private static Type primitive(String name, Schema schema, Repetition repetition, String path) {
    String logical = schema.name();
    if (Timestamp.LOGICAL_NAME.equals(logical)) {
      return Types.primitive(PrimitiveTypeName.INT64, repetition)
          .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MILLIS))
          .named(name);
    } else if (Date.LOGICAL_NAME.equals(logical)) {
      return Types.primitive(PrimitiveTypeName.INT32, repetition)
          .as(LogicalTypeAnnotation.dateType())
          .named(name);
    } else if (Time.LOGICAL_NAME.equals(logical)) {
      return Types.primitive(PrimitiveTypeName.INT32, repetition)
          .as(LogicalTypeAnnotation.timeType(false, TimeUnit.MILLIS))
          .named(name);
    } else if (Decimal.LOGICAL_NAME.equals(logical)) {
      return decimal(name, schema, repetition, path);
    }
    switch (schema.type()) {
      case INT8:
        return intType(name, repetition, 8);
      case INT16:
        return intType(name, repetition, 16);
      case INT32:
        return Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
      case INT64:
        return Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
      case FLOAT32:
        return Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
      case FLOAT64:
        return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
      case BOOLEAN:
        return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
      case STRING:
        return Types.primitive(PrimitiveTypeName.BINARY, repetition)
            .as(LogicalTypeAnnotation.stringType())
            .named(name);
      case BYTES:
        return Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
      default:
        throw new DataException("field " + path + ": unsupported type " + schema.type());
    }
  }

  private static Type intType(String name, Repetition repetition, int bits) {
    return Types.primitive(PrimitiveTypeName.INT32, repetition)
        .as(LogicalTypeAnnotation.intType(bits, true))
        .named(name);
  }

  private static Type decimal(String name, Schema schema, Repetition repetition, String path) {
    int precision = decimalPrecision(schema);
    int scale = decimalScale(schema);
    if (precision < 1 || scale < 0 || scale > precision) {
      throw new DataException(
          "field "
              + path
              + ": Parquet cannot store DECIMAL("
              + precision
              + ","
              + scale
              + "); it needs 0 <= scale <= precision and precision >= 1");
    }
    LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(scale, precision);
    if (precision <= 9) {
      return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation).named(name);
    } else if (precision <= 18) {
      return Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation).named(name);
    }
    return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
        .length(decimalBytes(precision))
        .as(annotation)
        .named(name);
  }

  private static Repetition repetition(Schema schema) {
    return schema.isOptional() ? Repetition.OPTIONAL : Repetition.REQUIRED;
  }

  private static String join(String path, Field field) {
    return path.isEmpty() ? field.name() : path + "." + field.name();
  }

  /** A form that changes only when the file layout does: names, repetition, types, annotations. */
  private static void canonical(Type type, StringBuilder out) {
    out.append(type.getName().length()).append(':').append(type.getName());
    out.append(' ').append(type.getRepetition().name());
    if (type.isPrimitive()) {
      PrimitiveType primitive = type.asPrimitiveType();
      out.append(' ').append(primitive.getPrimitiveTypeName().name());
      if (primitive.getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
        out.append('(').append(primitive.getTypeLength()).append(')');
      }
    }
    if (type.getLogicalTypeAnnotation() != null) {
      out.append(' ').append(type.getLogicalTypeAnnotation());
    }
    if (!type.isPrimitive()) {
      out.append(" {");
      for (Type child : type.asGroupType().getFields()) {
        canonical(child, out);
        out.append(';');
      }
      out.append('}');
    }
  }
}
