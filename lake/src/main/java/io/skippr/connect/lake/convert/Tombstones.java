package io.skippr.connect.lake.convert;

import io.skippr.connect.schema.SchemaInference;
import io.skippr.connect.schema.Schemas;
import io.skippr.connect.schema.ValueConformer;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * What a tombstone's delete row holds besides the added columns: the key fields it takes from its
 * record key (a table keyed by value fields), and {@code __deleted} itself when the table's rows
 * bring their own (Debezium's ExtractNewRecordState writes it as a string).
 */
final class Tombstones {
  private Tombstones() {}

  /**
   * The value fields of a tombstone's row, or null when it has none (the added columns say it all).
   *
   * @param keyFields the value fields forming the key; empty when the record key is the key
   * @param table the table's current row schema, null before its first row
   * @throws RecordRejectedException when the record key does not hold the key fields
   */
  static Struct value(SinkRecord record, List<String> keyFields, Schema table) {
    Field ownDeleted = table == null ? null : table.field(RowColumns.DELETED);
    boolean stringDeleted = ownDeleted != null && ownDeleted.schema().type() == Schema.Type.STRING;
    if (keyFields.isEmpty() && !stringDeleted) {
      return null;
    }
    SchemaBuilder builder = SchemaBuilder.struct();
    Object[] values = new Object[keyFields.size()];
    for (int i = 0; i < keyFields.size(); i++) {
      String name = keyFields.get(i);
      Schema schema = optional(keyFieldSchema(record, name, keyFields.size()));
      builder.field(name, schema);
      values[i] = keyFieldValue(record, name, schema);
    }
    if (stringDeleted) {
      builder.field(RowColumns.DELETED, Schema.OPTIONAL_STRING_SCHEMA);
    }
    Struct value = new Struct(builder.build());
    for (int i = 0; i < keyFields.size(); i++) {
      value.put(keyFields.get(i), values[i]);
    }
    if (stringDeleted) {
      value.put(RowColumns.DELETED, "true");
    }
    return value;
  }

  private static Schema keyFieldSchema(SinkRecord record, String name, int fields) {
    Object key = record.key();
    if (key instanceof Struct struct && struct.schema().field(name) != null) {
      return struct.schema().field(name).schema();
    }
    if (key instanceof Map<?, ?> map && map.get(name) != null) {
      return SchemaInference.infer(map.get(name));
    }
    if (key != null && !(key instanceof Struct) && !(key instanceof Map) && fields == 1) {
      if (record.keySchema() != null) {
        return record.keySchema();
      }
      // Keys are identifiers: a string key stays a string, as in the key column.
      return key instanceof String ? Schema.OPTIONAL_STRING_SCHEMA : SchemaInference.infer(key);
    }
    throw new RecordRejectedException(
        "a tombstone deletes its key under write.policy=merge_by_key, but its record key ("
            + describe(key)
            + ") does not hold the key field "
            + name
            + " of merge.key.fields");
  }

  private static Object keyFieldValue(SinkRecord record, String name, Schema schema) {
    Object key = record.key();
    if (key instanceof Struct struct) {
      return struct.get(name);
    }
    Object value = key instanceof Map<?, ?> map ? map.get(name) : key;
    return record.keySchema() != null ? value : ValueConformer.conform(value, schema);
  }

  private static Schema optional(Schema schema) {
    return Schemas.withOptional(schema, true);
  }

  private static String describe(Object key) {
    if (key == null) {
      return "null";
    }
    return key instanceof Struct struct
        ? "a struct of " + struct.schema().fields().stream().map(Field::name).toList()
        : "a " + key.getClass().getSimpleName();
  }
}
