package io.skippr.connect.transforms;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.InferredSchema;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * The current schema of each topic or namespace, evolved as records arrive by the schema module's
 * engine ({@link InferredSchema}), starting from the key's contract when there is one. Each schema
 * is one instance until it evolves, so every record of one shape carries the same Schema object.
 * Not thread-safe: Connect gives each task its own transformation.
 */
final class SchemaTracker {
  private final Contracts contracts;
  private final Map<String, InferredSchema> byKey = new HashMap<>();

  SchemaTracker(Contracts contracts) {
    this.contracts = contracts;
  }

  /**
   * The value as a Struct of the key's current schema, evolving the schema first when needed.
   *
   * @throws DataException {@code field path: reason} when the value cannot fit any evolution
   */
  Struct toStruct(String key, Map<?, ?> value) {
    return byKey.computeIfAbsent(key, this::start).toStruct(value);
  }

  /** The key's current schema, if any record or contract set one. */
  Optional<Schema> current(String key) {
    InferredSchema inferred = byKey.get(key);
    return Optional.ofNullable(inferred == null ? null : inferred.schema());
  }

  private InferredSchema start(String key) {
    return new InferredSchema(contracts.forKey(key).map(Contract::schema).orElse(null), true);
  }
}
