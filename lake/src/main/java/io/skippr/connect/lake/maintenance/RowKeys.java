package io.skippr.connect.lake.maintenance;

import io.skippr.connect.lake.convert.RowColumns;
import java.io.IOException;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/** A merged row's key, and whether it deletes its key. */
final class RowKeys {
  private static final String SEPARATOR = "\u0001";

  /** Debezium's envelope field naming the operation; {@code d} deletes. */
  private static final String OP = "op";

  private RowKeys() {}

  /**
   * @throws IOException when the files lack a key field
   */
  static void check(MessageType schema, List<String> keyFields) throws IOException {
    for (String field : keyFields) {
      if (!schema.containsField(field)) {
        throw new IOException(
            "the rows have no key field "
                + field
                + (field.equals(RowColumns.KEY)
                    ? " (merge_by_key by record key needs include.key=true)"
                    : ""));
      }
    }
  }

  /** The key as text: each field's value, a nested value in Parquet's record notation. */
  static String of(Group row, List<String> keyFields) {
    StringBuilder key = new StringBuilder();
    for (String field : keyFields) {
      int index = row.getType().getFieldIndex(field);
      if (row.getFieldRepetitionCount(index) == 0) {
        key.append("\u0000");
      } else if (row.getType().getType(index).isPrimitive()) {
        key.append(row.getValueToString(index, 0));
      } else {
        key.append(row.getGroup(index, 0));
      }
      key.append(SEPARATOR);
    }
    return key.toString();
  }

  /** {@code __deleted} true (or "true"), or a Debezium envelope's {@code op} {@code d}. */
  static boolean deletes(Group row) {
    GroupType type = row.getType();
    if (type.containsField(RowColumns.DELETED)) {
      int index = type.getFieldIndex(RowColumns.DELETED);
      if (row.getFieldRepetitionCount(index) > 0 && "true".equals(value(row, index))) {
        return true;
      }
    }
    if (type.containsField(OP)) {
      int index = type.getFieldIndex(OP);
      return row.getFieldRepetitionCount(index) > 0 && "d".equals(value(row, index));
    }
    return false;
  }

  private static String value(Group row, int index) {
    Type field = row.getType().getType(index);
    return field.isPrimitive() ? row.getValueToString(index, 0) : null;
  }
}
