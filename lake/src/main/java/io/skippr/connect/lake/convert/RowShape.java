package io.skippr.connect.lake.convert;

import io.skippr.connect.schema.Schemas;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The row schema for one (value schema, key schema) pair and how to fill it: value fields first,
 * then {@code __key}, the Kafka metadata columns, {@code __headers} and {@code __deleted}, as
 * configured. Built once per distinct schema pair, so filling a row is a field-by-field copy, and a
 * struct value that needs no added column is the row itself.
 *
 * <p>Values are stored through unnamed copies of the row's fields ("slots"): {@link Struct#put}
 * stores at the field's index, but for a named field Connect builds an error location string on
 * every call, which was most of the conversion's allocation.
 */
final class RowShape {
  final Schema rowSchema;

  /** What rows of this shape need checked before Parquet takes them; null for nothing. */
  final ValueChecks checks;

  /** The table schema version this shape was last checked against; -1 before. */
  int acceptedVersion = -1;

  /**
   * True when rows add columns to a struct value whose fields keep their positions and schemas, so
   * a value can be written straight into the row ({@link #addColumns} then adds the rest).
   */
  final boolean valueInPlace;

  private final boolean passThrough;
  private final Field[] sources;
  private final Field[] targets;
  private final boolean[] rewrap;
  private final Field valueColumn;
  private final Field key;
  private final boolean rewrapKey;
  private final Field topic;
  private final Field partition;
  private final Field offset;
  private final Field timestamp;
  private final Field headers;
  private final Field deleted;

  /**
   * @param valueSchema the value's struct schema, a non-struct value schema (one {@code value}
   *     column), or null for a tombstone row
   * @param keySchema the key's schema, or null for no {@code __key} column
   */
  RowShape(FormatConfig config, Schema valueSchema, Schema keySchema) {
    boolean structValue = valueSchema != null && valueSchema.type() == Schema.Type.STRUCT;
    List<Field> valueFields = structValue ? valueSchema.fields() : List.of();
    // Rows are required structs, so a table never sees two root optionalities.
    this.passThrough = structValue && addsNothing(config, valueSchema, keySchema);
    this.rowSchema =
        passThrough ? valueSchema : rowSchema(config, valueSchema, valueFields, keySchema);
    RowLimits.checkSchema(rowSchema); // depth first: counting columns recurses too
    RowLimits.checkColumns(rowSchema);
    ParquetSchemas.toMessageType(rowSchema); // fails here, per record, not later for a whole file
    this.checks = ValueChecks.forRow(rowSchema);
    this.sources = valueFields.toArray(new Field[0]);
    this.targets = new Field[sources.length];
    this.rewrap = new boolean[sources.length];
    for (int i = 0; i < sources.length; i++) {
      Field target = rowSchema.field(sources[i].name());
      targets[i] = slot(target);
      rewrap[i] = needsRewrap(sources[i].schema(), target.schema());
    }
    this.valueInPlace = !passThrough && sources.length > 0 && inPlace(sources, targets);
    this.valueColumn =
        valueSchema != null && !structValue ? slot(rowSchema.field(RowColumns.VALUE)) : null;
    this.key = slot(rowSchema.field(RowColumns.KEY));
    this.rewrapKey = keySchema != null && needsRewrap(keySchema, key.schema());
    this.topic = slot(rowSchema.field(RowColumns.TOPIC));
    this.partition = slot(rowSchema.field(RowColumns.PARTITION));
    this.offset = slot(rowSchema.field(RowColumns.OFFSET));
    this.timestamp = slot(rowSchema.field(RowColumns.TIMESTAMP));
    this.headers = slot(rowSchema.field(RowColumns.HEADERS));
    this.deleted =
        addsDeleted(config, valueFields) ? slot(rowSchema.field(RowColumns.DELETED)) : null;
  }

  /** Whether a struct value is the row itself: required, and no column is added. */
  private static boolean addsNothing(FormatConfig config, Schema valueSchema, Schema keySchema) {
    return !valueSchema.isOptional()
        && keySchema == null
        && !config.includeKafkaMetadata()
        && !config.includeHeaders()
        && config.nullValues() != FormatConfig.NullValues.WRITE;
  }

  /**
   * Whether rows get the {@code __deleted} column: with tombstones written, unless the value has a
   * field of that name (Debezium's ExtractNewRecordState marks deletes itself).
   */
  private static boolean addsDeleted(FormatConfig config, List<Field> valueFields) {
    if (config.nullValues() != FormatConfig.NullValues.WRITE) {
      return false;
    }
    for (Field field : valueFields) {
      if (field.name().equals(RowColumns.DELETED)) {
        return false;
      }
    }
    return true;
  }

  private static boolean inPlace(Field[] sources, Field[] targets) {
    for (int i = 0; i < sources.length; i++) {
      if (sources[i].index() != targets[i].index() || sources[i].schema() != targets[i].schema()) {
        return false;
      }
    }
    return true;
  }

  /** The columns this configuration adds; a value field must not have one of their names. */
  private static Set<String> added(FormatConfig config, Schema keySchema, boolean deleted) {
    Set<String> added = new HashSet<>();
    if (keySchema != null) {
      added.add(RowColumns.KEY);
    }
    if (config.includeKafkaMetadata()) {
      added.addAll(
          List.of(RowColumns.TOPIC, RowColumns.PARTITION, RowColumns.OFFSET, RowColumns.TIMESTAMP));
    }
    if (config.includeHeaders()) {
      added.add(RowColumns.HEADERS);
    }
    if (deleted) {
      added.add(RowColumns.DELETED);
    }
    return added;
  }

  private static Field slot(Field field) {
    return field == null ? null : new Field(null, field.index(), field.schema());
  }

  private static Schema rowSchema(
      FormatConfig config, Schema valueSchema, List<Field> valueFields, Schema keySchema) {
    boolean optionalValues = config.nullValues() == FormatConfig.NullValues.WRITE;
    boolean addsDeleted = addsDeleted(config, valueFields);
    SchemaBuilder builder = SchemaBuilder.struct();
    Set<String> added = added(config, keySchema, addsDeleted);
    for (Field field : valueFields) {
      if (added.contains(field.name())) {
        throw new DataException(
            "value field " + field.name() + " collides with a column the sink adds");
      }
      builder.field(field.name(), optionalValues ? optional(field.schema()) : field.schema());
    }
    if (valueSchema != null && valueSchema.type() != Schema.Type.STRUCT) {
      builder.field(RowColumns.VALUE, optionalValues ? optional(valueSchema) : valueSchema);
    }
    addedColumns(builder, config, keySchema, addsDeleted);
    Schema schema = builder.build();
    if (schema.fields().isEmpty()) {
      throw new DataException("the record has no fields to write and no columns are added");
    }
    return schema;
  }

  private static void addedColumns(
      SchemaBuilder builder, FormatConfig config, Schema keySchema, boolean addsDeleted) {
    if (keySchema != null) {
      builder.field(RowColumns.KEY, optional(keySchema));
    }
    if (config.includeKafkaMetadata()) {
      builder.field(RowColumns.TOPIC, RowColumns.TOPIC_SCHEMA);
      builder.field(RowColumns.PARTITION, RowColumns.PARTITION_SCHEMA);
      builder.field(RowColumns.OFFSET, RowColumns.OFFSET_SCHEMA);
      builder.field(RowColumns.TIMESTAMP, RowColumns.TIMESTAMP_SCHEMA);
    }
    if (config.includeHeaders()) {
      builder.field(RowColumns.HEADERS, HeaderColumn.SCHEMA);
    }
    if (addsDeleted) {
      builder.field(RowColumns.DELETED, RowColumns.DELETED_SCHEMA);
    }
  }

  /**
   * Fills a new row.
   *
   * @param value the value struct, the non-struct value, or null for a tombstone
   * @param keyValue the key as the key column holds it (ignored without a key column)
   */
  Struct fill(Object value, Object keyValue, SinkRecord record) {
    return fill(value, value == null, keyValue, record);
  }

  /**
   * Fills a new row that deletes its key: a tombstone's, whose value (null, or the key fields it
   * took from its record key) is no record value.
   */
  Struct fillDelete(Struct value, Object keyValue, SinkRecord record) {
    return fill(value, true, keyValue, record);
  }

  private Struct fill(Object value, boolean tombstone, Object keyValue, SinkRecord record) {
    if (passThrough) {
      return (Struct) value;
    }
    Struct row = new Struct(rowSchema);
    if (sources.length > 0) {
      copyFields((Struct) value, row);
    } else if (valueColumn != null) {
      row.put(valueColumn, value);
    }
    return addColumns(row, tombstone, keyValue, record);
  }

  /**
   * Adds the key, Kafka metadata and deleted columns to a row of this shape whose value fields are
   * set.
   */
  Struct addColumns(Struct row, boolean tombstone, Object keyValue, SinkRecord record) {
    if (key != null) {
      row.put(key, rewrapKey ? rewrap(keyValue, key.schema()) : keyValue);
    }
    if (topic != null) {
      row.put(topic, record.originalTopic());
      Integer originalPartition = record.originalKafkaPartition();
      row.put(partition, originalPartition != null ? originalPartition : record.kafkaPartition());
      row.put(offset, record.originalKafkaOffset());
      Long ts = record.timestamp();
      row.put(timestamp, ts == null ? null : new java.util.Date(ts));
    }
    if (headers != null) {
      row.put(headers, HeaderColumn.of(record));
    }
    if (deleted != null) {
      row.put(deleted, tombstone);
    }
    return row;
  }

  private void copyFields(Struct value, Struct row) {
    int i = 0;
    try {
      for (; i < sources.length; i++) {
        Object fieldValue = value.get(sources[i]);
        row.put(targets[i], rewrap[i] ? rewrap(fieldValue, targets[i].schema()) : fieldValue);
      }
    } catch (DataException e) {
      throw new DataException("field " + sources[i].name() + ": " + e.getMessage(), e);
    }
  }

  private static Schema optional(Schema schema) {
    return Schemas.withOptional(schema, true);
  }

  /** A struct made optional is another schema; Connect only accepts structs of the exact one. */
  private static boolean needsRewrap(Schema from, Schema to) {
    return from != to && from.type() == Schema.Type.STRUCT;
  }

  private static Object rewrap(Object value, Schema target) {
    if (!(value instanceof Struct struct) || struct.schema() == target) {
      return value;
    }
    Struct copy = new Struct(target);
    List<Field> fields = struct.schema().fields();
    for (int i = 0; i < fields.size(); i++) {
      copy.put(target.fields().get(i), struct.get(fields.get(i)));
    }
    return copy;
  }
}
