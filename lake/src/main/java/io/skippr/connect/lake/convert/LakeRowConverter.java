package io.skippr.connect.lake.convert;

import io.skippr.connect.schema.SchemaInference;
import io.skippr.connect.schema.ValueConformer;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Turns sink records into lake rows.
 *
 * <ul>
 *   <li>Struct values become rows of their fields; other values with a schema one {@code value}
 *       column; schemaless values (maps, lists, primitives as {@code JsonConverter} without schemas
 *       gives them) a struct of the table's inferred schema, which new keys and wider numbers
 *       evolve.
 *   <li>Configured columns follow: {@code __key}, {@code __topic}, {@code __partition}, {@code
 *       __offset} (the original Kafka position, before transforms), {@code __timestamp}, and {@code
 *       __deleted} when tombstones are written.
 *   <li>Each table keeps a current schema; a row whose schema is not an allowed evolution of it
 *       (new optional fields, int → long → double) is rejected with a reason naming the field.
 * </ul>
 *
 * <p>Every row's schema widens to its table's current schema ({@link #tableSchema}). Schema work
 * happens once per distinct schema; a record of a known schema costs a field copy. Not thread-safe:
 * one instance per task.
 */
public final class LakeRowConverter implements RowConverter {
  private static final int MAX_PROPOSALS = 16;

  private final FormatConfig config;
  private final TableNames tableNames;
  private final SharedSchemas shared;
  private final Map<String, TableState> tables = new HashMap<>();
  private final RowSizes.Planned sizes = new RowSizes.Planned();

  /** A converter whose schemaless tables each task infers on its own. */
  public LakeRowConverter(FormatConfig config) {
    this(config, SharedSchemas.inMemory());
  }

  /**
   * @param shared where the inferred schemas of schemaless tables are shared across tasks and
   *     restarts
   */
  public LakeRowConverter(FormatConfig config, SharedSchemas shared) {
    this.config = config;
    this.tableNames = new TableNames(config.tableNameFormat());
    this.shared = shared;
  }

  @Override
  public LakeRow convert(SinkRecord record) {
    try {
      String table = tableNames.tableFor(record.topic());
      TableState state =
          tables.computeIfAbsent(table, t -> new TableState(config, shared.current(t)));
      Struct row = record.value() == null ? tombstone(record, state) : row(table, record, state);
      return row == null ? null : new LakeRow(table, row, sizes.of(row));
    } catch (DataException e) {
      throw new RecordRejectedException(position(record) + ": " + e.getMessage(), e);
    }
  }

  /** The current row schema of a table, or null when no row has reached it yet. */
  public Schema tableSchema(String table) {
    TableState state = tables.get(table);
    return state == null ? null : state.schema();
  }

  private Struct row(String table, SinkRecord record, TableState state) {
    Object value = record.value();
    Schema keySchema = null;
    Object key = null;
    if (config.includeKey()) {
      keySchema = keySchema(record);
      key = keySchema == null ? null : keyValue(record, keySchema);
    }
    RowShape shape;
    if (value instanceof Struct struct) {
      shape = state.shape(struct.schema(), keySchema);
    } else if (record.valueSchema() != null) {
      shape = state.shape(record.valueSchema(), keySchema);
    } else {
      Struct fast = fittingRow(value, keySchema, key, record, state);
      if (fast != null) {
        return fast;
      }
      RowLimits.checkValue(value); // a value that fits the table nests no deeper than it
      return schemalessRow(table, asFields(value), keySchema, key, record, state);
    }
    return checked(shape, shape.fill(value, key, record));
  }

  /**
   * The row of a schemaless object that needs the table's inferred schema to evolve (or to start).
   * Only a record that made it into a row may evolve it, and the evolution is shared: of tasks that
   * evolve the table at once one wins, and the others fit their record again against its schema.
   */
  private Struct schemalessRow(
      String table,
      Map<?, ?> fields,
      Schema keySchema,
      Object key,
      SinkRecord record,
      TableState state) {
    for (int proposal = 0; proposal < MAX_PROPOSALS; proposal++) {
      Schema current = state.schemaless.schema();
      // A required root (as rows are) lets the conformed struct be the row itself, uncopied.
      Schema valueSchema = state.schemaless.fit(fields);
      Object value = ValueConformer.conform(fields, valueSchema);
      if (valueSchema != current) {
        state.check(valueSchema, keySchema);
        SharedSchemas.Versioned won = shared.propose(table, state.schemalessVersion, valueSchema);
        state.schemaless.adopt(won.schema());
        state.schemalessVersion = won.version();
        if (won.schema() != valueSchema) {
          continue; // another writer evolved the table first: fit against its schema
        }
      }
      RowShape shape = state.shape(valueSchema, keySchema);
      return checked(shape, shape.fill(value, key, record));
    }
    throw new RecordRejectedException(
        "the schema of table " + table + " kept changing under " + MAX_PROPOSALS + " proposals");
  }

  /**
   * The row of a schemaless object that fits the table's inferred schema as it is, or null when it
   * needs the general path. With added columns its fields go straight into the row when the last
   * row of this shape had them in place; the shape is taken (and checked against the table) only
   * once the value fits, as on the general path.
   */
  private static Struct fittingRow(
      Object value, Schema keySchema, Object key, SinkRecord record, TableState state) {
    Schema valueSchema = state.schemaless.schema();
    if (!(value instanceof Map<?, ?> map) || valueSchema == null) {
      return null;
    }
    RowShape last = state.lastShape(valueSchema, keySchema);
    boolean inPlace = last != null && last.valueInPlace;
    Struct target = new Struct(inPlace ? last.rowSchema : valueSchema);
    if (!state.schemaless.conformInto(target, map)) {
      return null;
    }
    RowShape shape = state.shape(valueSchema, keySchema); // the last one again when in place
    Struct row =
        inPlace ? shape.addColumns(target, false, key, record) : shape.fill(target, key, record);
    return checked(shape, row);
  }

  private static Struct checked(RowShape shape, Struct row) {
    if (shape.checks != null) {
      shape.checks.check(row);
    }
    return row;
  }

  private Struct tombstone(SinkRecord record, TableState state) {
    switch (config.nullValues()) {
      case IGNORE:
        return null;
      case FAIL:
        throw new RecordRejectedException(
            "the value is null (a tombstone) and behavior.on.null.values=fail");
      default:
        Schema keySchema = config.includeKey() ? keySchema(record) : null;
        Object key = keySchema == null ? null : keyValue(record, keySchema);
        Struct value = Tombstones.value(record, config.tombstoneKeyFields(), state.schema());
        Schema valueSchema = value == null ? null : value.schema();
        return state.shape(valueSchema, keySchema).fillDelete(value, key, record);
    }
  }

  /** The key column's schema: the key's own, inferred for a schemaless key, null for none. */
  private static Schema keySchema(SinkRecord record) {
    Object key = record.key();
    if (key instanceof Struct struct) {
      return struct.schema();
    } else if (record.keySchema() != null) {
      return record.keySchema();
    } else if (key == null) {
      return null;
    } else if (key instanceof String) {
      // Keys are identifiers: never read a date into a string key.
      return Schema.OPTIONAL_STRING_SCHEMA;
    }
    RowLimits.checkValue(key);
    return SchemaInference.infer(key);
  }

  private static Object keyValue(SinkRecord record, Schema keySchema) {
    Object key = record.key();
    if (key == null || key instanceof Struct || record.keySchema() != null) {
      return key;
    }
    return ValueConformer.conform(key, keySchema);
  }

  /** A schemaless object as fields; any other value is one field named {@code value}. */
  private static Map<?, ?> asFields(Object value) {
    if (value instanceof Map<?, ?> map) {
      boolean object = true;
      for (Object key : map.keySet()) {
        object &= key instanceof String;
      }
      if (object) {
        return map;
      }
    }
    return Collections.singletonMap(RowColumns.VALUE, value);
  }

  private static String position(SinkRecord record) {
    Integer partition = record.originalKafkaPartition();
    return "topic "
        + record.originalTopic()
        + " partition "
        + (partition != null ? partition : record.kafkaPartition())
        + " offset "
        + record.originalKafkaOffset();
  }
}
