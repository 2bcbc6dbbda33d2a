package io.skippr.connect.lake.format;

import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.parquet.io.api.RecordConsumer;

/** Builds the writer tree of a file schema; containers follow the layouts of ParquetSchemas. */
final class ValueWriters {
  private ValueWriters() {}

  static ValueWriter forSchema(Schema schema, String path) {
    switch (schema.type()) {
      case STRUCT:
        return new StructWriter(schema, path);
      case ARRAY:
        return new ListWriter(schema, path);
      case MAP:
        return new MapWriter(schema, path);
      default:
        return PrimitiveWriters.forSchema(schema, path);
    }
  }

  /** {@code group (LIST) { repeated group list { element } }}. */
  static final class ListWriter implements ValueWriter {
    private final ValueWriter element;
    private final boolean elementRequired;
    private final String path;

    ListWriter(Schema schema, String path) {
      this.path = path + "[]";
      this.element = forSchema(schema.valueSchema(), this.path);
      this.elementRequired = !schema.valueSchema().isOptional();
    }

    @Override
    public void write(RecordConsumer consumer, Object value) {
      List<?> list = (List<?>) value;
      consumer.startGroup();
      if (!list.isEmpty()) {
        consumer.startField("list", 0);
        if (list instanceof RandomAccess) {
          for (int i = 0, n = list.size(); i < n; i++) {
            writeElement(consumer, list.get(i));
          }
        } else {
          for (Object item : list) {
            writeElement(consumer, item);
          }
        }
        consumer.endField("list", 0);
      }
      consumer.endGroup();
    }

    private void writeElement(RecordConsumer consumer, Object item) {
      consumer.startGroup();
      if (item != null) {
        consumer.startField("element", 0);
        element.write(consumer, item);
        consumer.endField("element", 0);
      } else if (elementRequired) {
        throw new DataException(
            "field " + path + " holds a null element but elements are required");
      }
      consumer.endGroup();
    }
  }

  /** {@code group (MAP) { repeated group key_value { required key; value } }}. */
  static final class MapWriter implements ValueWriter {
    private final ValueWriter key;
    private final ValueWriter value;
    private final boolean valueRequired;
    private final String path;

    MapWriter(Schema schema, String path) {
      this.path = path;
      this.key = forSchema(schema.keySchema(), path + ".key");
      this.value = forSchema(schema.valueSchema(), path + ".value");
      this.valueRequired = !schema.valueSchema().isOptional();
    }

    @Override
    public void write(RecordConsumer consumer, Object map) {
      Map<?, ?> entries = (Map<?, ?>) map;
      consumer.startGroup();
      if (!entries.isEmpty()) {
        consumer.startField("key_value", 0);
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
          writeEntry(consumer, entry.getKey(), entry.getValue());
        }
        consumer.endField("key_value", 0);
      }
      consumer.endGroup();
    }

    private void writeEntry(RecordConsumer consumer, Object k, Object v) {
      if (k == null) {
        throw new DataException("field " + path + " holds a null map key");
      }
      consumer.startGroup();
      consumer.startField("key", 0);
      key.write(consumer, k);
      consumer.endField("key", 0);
      if (v != null) {
        consumer.startField("value", 1);
        value.write(consumer, v);
        consumer.endField("value", 1);
      } else if (valueRequired) {
        throw new DataException("field " + path + " holds a null value but values are required");
      }
      consumer.endGroup();
    }
  }
}
