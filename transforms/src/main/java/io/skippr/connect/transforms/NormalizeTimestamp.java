package io.skippr.connect.transforms;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Turns the configured fields into Connect Timestamps: strings in the configured formats (ISO-8601
 * by default) and epoch numbers (seconds, millis, micros or nanos, or by magnitude). Works on
 * Struct values (the field's schema becomes Timestamp, optional as before) and on schemaless Map
 * values (the field becomes a {@code java.util.Date}). A value that cannot be read fails the record
 * with a {@link DataException} naming the field and the value. Missing and null fields are left
 * alone. Use {@link Key} or {@link Value}.
 */
public abstract class NormalizeTimestamp<R extends ConnectRecord<R>>
    extends SkipprTransformation<R> {
  public static final String OVERVIEW_DOC =
      "Converts timestamp strings (configured formats, ISO-8601 by default) and epoch numbers in"
          + " the named fields into Connect Timestamps, in Struct and schemaless Map values.";

  public static final ConfigDef CONFIG_DEF = NormalizeTimestampConfig.define(new ConfigDef());

  private TimestampRewriter rewriter;

  abstract RecordPart part();

  @Override
  public void configure(Map<String, ?> props) {
    NormalizeTimestampConfig.Settings settings =
        NormalizeTimestampConfig.from(new AbstractConfig(CONFIG_DEF, props));
    rewriter = new TimestampRewriter(settings.fields(), settings.parser());
  }

  @Override
  public R apply(R record) {
    RecordPart part = part();
    Object value = part.value(record);
    try {
      if (value instanceof Struct struct) {
        Schema output = rewriter.schema(struct.schema());
        return part.replace(record, output, rewriter.struct(struct, output));
      }
      if (value instanceof Map<?, ?> map && part.schema(record) == null) {
        return part.replace(record, null, rewriter.map(map));
      }
      return record;
    } catch (DataException e) {
      throw new DataException(
          "NormalizeTimestamp: "
              + part.label()
              + " of topic "
              + record.topic()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public ConfigDef config() {
    return CONFIG_DEF;
  }

  /** Normalizes fields of record keys. */
  public static final class Key<R extends ConnectRecord<R>> extends NormalizeTimestamp<R> {
    @Override
    RecordPart part() {
      return RecordPart.KEY;
    }
  }

  /** Normalizes fields of record values. */
  public static final class Value<R extends ConnectRecord<R>> extends NormalizeTimestamp<R> {
    @Override
    RecordPart part() {
      return RecordPart.VALUE;
    }
  }
}
