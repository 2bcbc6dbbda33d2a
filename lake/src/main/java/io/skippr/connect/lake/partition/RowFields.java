package io.skippr.connect.lake.partition;

import io.skippr.connect.lake.convert.RecordRejectedException;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** Finds a (possibly nested, dotted) field in a row. */
final class RowFields {
  private RowFields() {}

  /** A field found in the row: its schema and value (null when the value or a parent is null). */
  record Found(Schema schema, Object value) {}

  /**
   * Resolves {@code path} in the row. A field whose own name contains dots wins over nesting;
   * otherwise each dot steps into a struct.
   *
   * @throws RecordRejectedException naming the field when the schema has no such field
   */
  static Found find(Struct row, String path, String purpose) {
    if (row == null) {
      throw new RecordRejectedException(
          purpose + " '" + path + "' cannot be read: the row is null");
    }
    Found found = find(row.schema(), row, path);
    if (found == null) {
      throw new RecordRejectedException(
          purpose
              + " '"
              + path
              + "' is not a field of the row (fields: "
              + names(row.schema())
              + ")");
    }
    return found;
  }

  private static Found find(Schema schema, Struct struct, String path) {
    Field exact = schema.field(path);
    if (exact != null) {
      return new Found(exact.schema(), struct == null ? null : struct.get(exact));
    }
    for (int dot = path.indexOf('.'); dot > 0; dot = path.indexOf('.', dot + 1)) {
      Field parent = schema.field(path.substring(0, dot));
      if (parent != null && parent.schema().type() == Schema.Type.STRUCT) {
        Struct child = struct == null ? null : (Struct) struct.get(parent);
        Found found = find(parent.schema(), child, path.substring(dot + 1));
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static String names(Schema schema) {
    return schema.type() == Schema.Type.STRUCT
        ? String.join(", ", schema.fields().stream().map(Field::name).toList())
        : schema.type().getName();
  }
}
