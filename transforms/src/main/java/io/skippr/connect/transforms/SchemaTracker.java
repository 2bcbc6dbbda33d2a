package io.skippr.connect.transforms;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.SchemaEvolution;
import io.skippr.connect.schema.SchemaFlag;
import io.skippr.connect.schema.SchemaInference;
import io.skippr.connect.schema.SchemaMarkers;
import io.skippr.connect.schema.Schemas;
import io.skippr.connect.schema.ValueConformer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * The current schema of each topic or namespace, evolved as records arrive: a record that fits the
 * current schema becomes a Struct of it directly; otherwise its inferred schema evolves the current
 * one (new optional fields, numeric widening) or the record is refused.
 *
 * <p>Each schema is one instance until it evolves, so every record of one shape carries the same
 * Schema object. Not thread-safe: Connect gives each task its own transformation.
 */
final class SchemaTracker {
  /** Most incoming shapes remembered per key between two evolutions. */
  static final int MAX_SHAPES = 256;

  private final Contracts contracts;
  private final Map<String, Current> byKey = new HashMap<>();

  SchemaTracker(Contracts contracts) {
    this.contracts = contracts;
  }

  /**
   * The value as a Struct of the key's current schema, evolving the schema first when needed.
   *
   * @throws DataException {@code path: reason} when the value cannot fit any evolution
   */
  Struct toStruct(String key, Map<?, ?> value) {
    Current current = byKey.computeIfAbsent(key, this::start);
    if (current.schema != null && !current.hasNullOnly) {
      try {
        return (Struct) ValueConformer.conform(value, current.schema);
      } catch (DataException doesNotFitYet) {
        // fall through: maybe the schema can evolve to take it
      }
    }
    Schema incoming = SchemaInference.infer(value);
    current.accept(incoming);
    return (Struct) ValueConformer.conform(value, current.schema);
  }

  /** The key's current schema, if any record or contract set one. */
  Optional<Schema> current(String key) {
    Current current = byKey.get(key);
    return Optional.ofNullable(current == null ? null : current.schema);
  }

  private Current start(String key) {
    return new Current(contracts.forKey(key).map(Contract::schema).orElse(null));
  }

  private static final class Current {
    private Schema schema;
    private boolean hasNullOnly;
    private final Map<Schema, Schema> evolvedByIncoming = new HashMap<>();

    Current(Schema schema) {
      if (schema != null) {
        set(schema);
      }
    }

    void accept(Schema inferred) {
      if (schema == null) {
        set(inferred);
        return;
      }
      // A contract may declare its root required; inferred roots are always optional.
      Schema incoming = Schemas.withOptional(inferred, schema.isOptional());
      Schema next = evolvedByIncoming.get(incoming);
      if (next == null) {
        next =
            SchemaEvolution.evolve(schema, incoming)
                .orElseThrow(() -> new DataException(EvolutionConflict.describe(schema, incoming)));
        if (evolvedByIncoming.size() >= MAX_SHAPES) {
          evolvedByIncoming.clear();
        }
      }
      if (next != schema) {
        set(next);
      }
      evolvedByIncoming.put(incoming, schema);
    }

    private void set(Schema next) {
      schema = next;
      hasNullOnly =
          SchemaMarkers.flags(next).stream().anyMatch(f -> f.kind() == SchemaFlag.Kind.NULL_ONLY);
      evolvedByIncoming.clear();
    }
  }
}
