package io.skippr.connect.lake.convert;

import io.skippr.connect.schema.InferredSchema;
import io.skippr.connect.schema.SchemaEvolution;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Schema;

/**
 * What the converter knows about one table: its current row schema (which only grows: new optional
 * fields, wider numbers), the row shapes seen so far, and the inferred value schema of its
 * schemaless records.
 */
final class TableState {
  private static final int MAX_SHAPES = 1000;

  /** The inferred value schema of the table's schemaless records; a required root, as rows are. */
  final InferredSchema schemaless;

  /** The shared version {@link #schemaless} stands at; 0 before the first. */
  long schemalessVersion;

  private final FormatConfig config;
  private final Map<ShapeKey, RowShape> shapes = new HashMap<>();
  private Schema schema;
  private int version;
  private Schema lastValue;
  private Schema lastKey;
  private RowShape lastShape;

  private record ShapeKey(Schema value, Schema key) {}

  /**
   * @param stored the table's shared schemaless schema, if one was stored
   */
  TableState(FormatConfig config, Optional<SharedSchemas.Versioned> stored) {
    this.config = config;
    this.schemaless =
        new InferredSchema(stored.map(SharedSchemas.Versioned::schema).orElse(null), false);
    this.schemalessVersion = stored.map(SharedSchemas.Versioned::version).orElse(0L);
  }

  /** The table's current row schema, or null before its first row. */
  Schema schema() {
    return schema;
  }

  /** The shape of the last row when it had these schemas, unchecked; null otherwise. */
  RowShape lastShape(Schema valueSchema, Schema keySchema) {
    return valueSchema == lastValue && keySchema == lastKey ? lastShape : null;
  }

  /**
   * The shape of rows for this value and key schema, checked against the table schema (which it
   * evolves when it brings new optional fields or wider numbers).
   *
   * @throws RecordRejectedException when rows of this shape cannot join the table
   */
  RowShape shape(Schema valueSchema, Schema keySchema) {
    RowShape shape;
    if (valueSchema == lastValue && keySchema == lastKey && lastShape != null) {
      shape = lastShape;
    } else {
      ShapeKey key = new ShapeKey(valueSchema, keySchema);
      shape = shapes.get(key);
      if (shape == null) {
        shape = new RowShape(config, valueSchema, keySchema);
        if (shapes.size() >= MAX_SHAPES) {
          shapes.clear();
        }
        shapes.put(key, shape);
      }
      lastValue = valueSchema;
      lastKey = keySchema;
      lastShape = shape;
    }
    if (shape.acceptedVersion != version) {
      accept(shape);
    }
    return shape;
  }

  /**
   * Checks, changing nothing, that rows of this value and key schema could join the table.
   *
   * @throws RecordRejectedException when they could not
   */
  void check(Schema valueSchema, Schema keySchema) {
    RowShape shape = new RowShape(config, valueSchema, keySchema);
    if (schema == null) {
      return;
    }
    Optional<Schema> evolved = SchemaEvolution.evolve(schema, shape.rowSchema);
    if (evolved.isEmpty()) {
      throw new RecordRejectedException(
          "the record does not fit the table: " + SchemaMismatch.explain(schema, shape.rowSchema));
    }
    RowLimits.checkColumns(evolved.get());
  }

  private void accept(RowShape shape) {
    if (schema == null) {
      schema = shape.rowSchema;
      version++;
    } else {
      Optional<Schema> evolved = SchemaEvolution.evolve(schema, shape.rowSchema);
      if (evolved.isEmpty()) {
        throw new RecordRejectedException(
            "the record does not fit the table: "
                + SchemaMismatch.explain(schema, shape.rowSchema));
      }
      if (evolved.get() != schema) {
        RowLimits.checkColumns(evolved.get());
        schema = evolved.get();
        version++;
      }
    }
    shape.acceptedVersion = version;
  }
}
