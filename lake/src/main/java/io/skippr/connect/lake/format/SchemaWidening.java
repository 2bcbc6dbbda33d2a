package io.skippr.connect.lake.format;

import io.skippr.connect.schema.SchemaMarkers;
import io.skippr.connect.schema.Schemas;
import java.util.Objects;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Whether values of one Connect schema can be written into a column of another: the rule the file
 * writer applies when a row's schema is narrower than the file's.
 *
 * <ul>
 *   <li>structs match fields by name; every row field must exist in the file, and a file field the
 *       row lacks must be optional (it is written as null);
 *   <li>INT8 → INT16 → INT32 → INT64 and any integer → FLOAT64, FLOAT32 → FLOAT64;
 *   <li>decimals must keep their scale (a value above the file precision fails when written);
 *   <li>other types, including logical types, must match exactly; arrays and maps recurse;
 *   <li>a field inference only ever saw null (a null-only placeholder) fits any optional column.
 * </ul>
 */
public final class SchemaWidening {
  private SchemaWidening() {}

  /** Returns null when {@code row} widens to {@code file}, else the reason naming the field. */
  public static String mismatch(Schema row, Schema file, String path) {
    if (SchemaMarkers.isNullOnly(row) && file.isOptional()) {
      return null;
    }
    if (row.type() == Schema.Type.STRUCT && file.type() == Schema.Type.STRUCT) {
      return structMismatch(row, file, path);
    }
    if (row.type() == Schema.Type.ARRAY && file.type() == Schema.Type.ARRAY) {
      return mismatch(row.valueSchema(), file.valueSchema(), path + "[]");
    }
    if (row.type() == Schema.Type.MAP && file.type() == Schema.Type.MAP) {
      String keys = mismatch(row.keySchema(), file.keySchema(), path + ".key");
      return keys != null ? keys : mismatch(row.valueSchema(), file.valueSchema(), path + ".value");
    }
    if (primitiveWidens(row, file)) {
      return null;
    }
    return "field "
        + name(path)
        + " is "
        + describe(row)
        + " in the row but "
        + describe(file)
        + " in the file";
  }

  /** True when {@code row} widens to {@code file}. */
  public static boolean widens(Schema row, Schema file) {
    return mismatch(row, file, "") == null;
  }

  private static String structMismatch(Schema row, Schema file, String path) {
    for (Field field : row.fields()) {
      Field target = file.field(field.name());
      String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
      if (target == null) {
        return "field " + fieldPath + " is not in the file schema";
      }
      String inner = mismatch(field.schema(), target.schema(), fieldPath);
      if (inner != null) {
        return inner;
      }
    }
    for (Field target : file.fields()) {
      if (row.field(target.name()) == null && !target.schema().isOptional()) {
        String fieldPath = path.isEmpty() ? target.name() : path + "." + target.name();
        return "field " + fieldPath + " is required in the file but missing from the row";
      }
    }
    return null;
  }

  private static boolean primitiveWidens(Schema row, Schema file) {
    if (!Objects.equals(row.name(), file.name()) && (isLogical(row) || isLogical(file))) {
      return false;
    }
    if (Decimal.LOGICAL_NAME.equals(file.name())) {
      return Objects.equals(
          row.parameters().get(Decimal.SCALE_FIELD), file.parameters().get(Decimal.SCALE_FIELD));
    }
    if (row.type() == file.type()) {
      return true;
    }
    return Schemas.isPlain(row)
        && Schemas.isPlain(file)
        && Schemas.widerNumeric(row.type(), file.type()) == file.type();
  }

  private static boolean isLogical(Schema schema) {
    String name = schema.name();
    return name != null && name.startsWith("org.apache.kafka.connect.data.");
  }

  private static String describe(Schema schema) {
    return schema.name() != null && isLogical(schema)
        ? schema.name().substring("org.apache.kafka.connect.data.".length())
        : schema.type().toString();
  }

  private static String name(String path) {
    return path.isEmpty() ? "<value>" : path;
  }
}
