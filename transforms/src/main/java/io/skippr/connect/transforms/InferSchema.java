package io.skippr.connect.transforms;

import io.skippr.connect.schema.ValueConformer;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Turns schemaless values (maps, as {@code JsonConverter} with {@code schemas.enable=false} gives
 * them) into Structs whose schema is stable across records. One current schema is kept per topic
 * (or per namespace, see {@link InferSchemaConfig}), optionally starting from a saved contract. A
 * record that fits it becomes a Struct of that same Schema instance; one that does not evolves it
 * (new optional fields, int32 → int64 → double) when the evolution is compatible; otherwise the
 * record fails with a {@link DataException} naming the field and the reason, and Connect's error
 * handling sends it to the dead letter queue ({@code errors.tolerance=all}, {@code
 * errors.deadletterqueue.topic.name}).
 *
 * <p>Null values (tombstones) and values that already carry a schema pass through unchanged. Use
 * {@link Key} or {@link Value}.
 */
public abstract class InferSchema<R extends ConnectRecord<R>> extends SkipprTransformation<R> {
  public static final String OVERVIEW_DOC =
      "Infers a Struct schema, stable across records, for schemaless map values; evolves it with"
          + " new optional fields and numeric widening; fails records that cannot fit.";

  public static final ConfigDef CONFIG_DEF = InferSchemaConfig.define(new ConfigDef());

  private NamespaceNames namespaces;
  private SchemaTracker tracker;

  /** Which part of the record this instance works on. */
  abstract RecordPart part();

  @Override
  public void configure(Map<String, ?> props) {
    InferSchemaConfig.Settings settings =
        InferSchemaConfig.from(new AbstractConfig(CONFIG_DEF, props));
    namespaces = settings.namespaces();
    tracker = new SchemaTracker(settings.contracts());
  }

  @Override
  public R apply(R record) {
    RecordPart part = part();
    Object value = part.value(record);
    if (value == null || part.schema(record) != null) {
      return record;
    }
    String key = record.topic();
    try {
      key = namespaces.route(record.topic(), record.value());
      if (!(value instanceof Map<?, ?> map)) {
        throw new DataException(
            "(root): expected an object, got " + ValueConformer.describe(value));
      }
      Struct struct = tracker.toStruct(key, map);
      return part.replace(record, struct.schema(), struct);
    } catch (DataException e) {
      throw new DataException(
          "InferSchema: " + part.label() + " of " + where(record, key) + ": " + e.getMessage(), e);
    }
  }

  static String where(ConnectRecord<?> record, String key) {
    String where = "topic " + record.topic();
    return key.equals(record.topic()) ? where : where + " (namespace " + key + ")";
  }

  @Override
  public ConfigDef config() {
    return CONFIG_DEF;
  }

  /** Infers the schema of record keys. */
  public static final class Key<R extends ConnectRecord<R>> extends InferSchema<R> {
    @Override
    RecordPart part() {
      return RecordPart.KEY;
    }
  }

  /** Infers the schema of record values. */
  public static final class Value<R extends ConnectRecord<R>> extends InferSchema<R> {
    @Override
    RecordPart part() {
      return RecordPart.VALUE;
    }
  }
}
