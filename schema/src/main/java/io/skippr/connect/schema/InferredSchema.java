package io.skippr.connect.schema;

import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * The schema of one stream of schemaless objects (a lake table, a topic, a namespace) as it evolves
 * record by record: the one inference engine for values that arrive one at a time, used by the
 * {@code InferSchema} transform and the lake sink alike.
 *
 * <p>The first object's inferred schema ({@link SchemaInference}) starts it, unless a contract
 * does. After that, keys seen for the first time become new optional fields (inferred, added in
 * name order), a field only ever null takes the first concrete type, and numbers widen int32 →
 * int64 → double; a value of another kind is refused with its field path ({@link SchemalessFit}).
 * Objects that fit as they are take a fast path ({@link SchemalessPlan}) that decides exactly as
 * the general one.
 *
 * <p>Fitting and adopting are separate steps, so a caller can refuse a record for its own reasons
 * after it fitted and before the schema moves. Not thread-safe.
 */
public final class InferredSchema {
  private final boolean optionalRoot;
  private Schema schema;

  /** The fast path of {@link #plannedFor}; null when that schema has none. */
  private SchemalessPlan plan;

  private Schema plannedFor;

  /**
   * @param start the schema to start from (a contract's), or null to start from the first object
   * @param optionalRoot whether a schema started from an object has an optional root
   */
  public InferredSchema(Schema start, boolean optionalRoot) {
    this.optionalRoot = optionalRoot;
    this.schema = start;
  }

  /** The current schema; null before the first object when no contract started it. */
  public Schema schema() {
    return schema;
  }

  /**
   * The schema that holds the object: the current one when it fits, else its evolution. Does not
   * change {@link #schema()}; see {@link #adopt}.
   *
   * @throws DataException {@code field a.b: expected …, got …} when no evolution can hold it
   */
  public Schema fit(Map<?, ?> value) {
    if (schema == null) {
      return Schemas.withOptional(SchemaInference.infer(value), optionalRoot);
    }
    return SchemalessFit.fit(schema, value, "", null);
  }

  /** Makes a schema that {@link #fit} returned the current one. */
  public void adopt(Schema fitted) {
    schema = fitted;
  }

  /**
   * Puts an object that fits the current schema as it is into {@code target}, whose first fields
   * are the current schema's; false (with {@code target} partly filled) when it needs {@link #fit}.
   */
  public boolean conformInto(Struct target, Map<?, ?> value) {
    SchemalessPlan fast = plan();
    return fast != null && fast.conformInto(target, value);
  }

  /**
   * The object as a struct of the current schema, evolving the schema first when the object needs
   * it.
   *
   * @throws DataException {@code field a.b: …} when the object cannot fit any evolution
   */
  public Struct toStruct(Map<?, ?> value) {
    SchemalessPlan fast = plan();
    Struct struct = fast == null ? null : fast.conform(value);
    if (struct != null) {
      return struct;
    }
    Schema fitted = fit(value);
    Struct conformed = (Struct) ValueConformer.conform(value, fitted);
    adopt(fitted);
    return conformed;
  }

  private SchemalessPlan plan() {
    if (schema != plannedFor) {
      plan = schema == null ? null : SchemalessPlan.of(schema);
      plannedFor = schema;
    }
    return plan;
  }
}
