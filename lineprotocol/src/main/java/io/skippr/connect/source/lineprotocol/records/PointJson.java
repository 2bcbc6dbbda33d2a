package io.skippr.connect.source.lineprotocol.records;

import com.fasterxml.jackson.core.JsonGenerator;
import io.skippr.connect.json.ByteSink;
import io.skippr.connect.json.JsonPayload;
import io.skippr.connect.source.lineprotocol.Field;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.Tag;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.kafka.connect.data.Schema;

/**
 * A point's value written straight as JSON, the bytes Kafka's JsonConverter writes for the Struct
 * {@link PointConverter} makes of it: the schema's columns in order, {@code time} as epoch
 * milliseconds, a column the point does not have as null. No Struct is built.
 */
final class PointJson {

  /** Bytes a point's payload starts with room for. */
  private static final int INITIAL_BYTES = 256;

  private PointJson() {}

  /**
   * @param schema the measurement's schema, which holds every tag and field of the point
   */
  static JsonPayload payload(Schema schema, Point point, long millis) {
    List<org.apache.kafka.connect.data.Field> columns = schema.fields();
    Object[] values = new Object[columns.size()];
    values[schema.field(MeasurementSchemas.TIME).index()] = millis;
    values[schema.field(MeasurementSchemas.TIME_NS).index()] = point.timeNanos();
    for (Tag t : point.tags()) {
      values[schema.field(t.key()).index()] = t.value();
    }
    for (Field f : point.fields()) {
      values[schema.field(f.key()).index()] = f.value();
    }
    ByteSink out = new ByteSink(INITIAL_BYTES);
    try (JsonGenerator g = JsonPayload.generator(out)) {
      g.writeStartObject();
      for (int i = 0; i < values.length; i++) {
        g.writeFieldName(columns.get(i).name());
        write(values[i], g);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new JsonPayload(schema, out.toByteArray(), 1);
  }

  private static void write(Object value, JsonGenerator g) throws IOException {
    if (value instanceof String s) {
      g.writeString(s);
    } else if (value instanceof Long l) {
      g.writeNumber(l);
    } else if (value instanceof Double d) {
      g.writeNumber(d);
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else {
      g.writeNull();
    }
  }
}
