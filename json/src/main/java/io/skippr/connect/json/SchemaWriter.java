package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * A Connect schema in Kafka's JSON form, written with the keys in the order Kafka's converter puts
 * them into its tree (so the bytes are Kafka's): type; items, or keys and values, or fields;
 * optional, name, version, doc, parameters, default; and, for a struct's field, its name last.
 */
final class SchemaWriter {
  private final ValueWriter values;

  SchemaWriter(ValueWriter values) {
    this.values = values;
  }

  void write(Schema schema, JsonGenerator g) throws IOException {
    write(schema, null, g);
  }

  private void write(Schema schema, String fieldName, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("type", typeName(schema.type()));
    switch (schema.type()) {
      case ARRAY -> {
        g.writeFieldName("items");
        write(schema.valueSchema(), null, g);
      }
      case MAP -> {
        g.writeFieldName("keys");
        write(schema.keySchema(), null, g);
        g.writeFieldName("values");
        write(schema.valueSchema(), null, g);
      }
      case STRUCT -> {
        g.writeArrayFieldStart("fields");
        for (Field field : schema.fields()) {
          write(field.schema(), field.name(), g);
        }
        g.writeEndArray();
      }
      default -> {
        // a primitive: its type says it all
      }
    }
    g.writeBooleanField("optional", schema.isOptional());
    metadata(schema, g);
    if (schema.defaultValue() != null) {
      g.writeFieldName("default");
      values.write(schema, schema.defaultValue(), g);
    }
    if (fieldName != null) {
      g.writeStringField("field", fieldName);
    }
    g.writeEndObject();
  }

  private static void metadata(Schema schema, JsonGenerator g) throws IOException {
    if (schema.name() != null) {
      g.writeStringField("name", schema.name());
    }
    if (schema.version() != null) {
      g.writeNumberField("version", schema.version());
    }
    if (schema.doc() != null) {
      g.writeStringField("doc", schema.doc());
    }
    if (schema.parameters() != null) {
      g.writeObjectFieldStart("parameters");
      for (Map.Entry<String, String> parameter : schema.parameters().entrySet()) {
        g.writeStringField(parameter.getKey(), parameter.getValue());
      }
      g.writeEndObject();
    }
  }

  private static String typeName(Schema.Type type) {
    return switch (type) {
      case FLOAT32 -> "float";
      case FLOAT64 -> "double";
      default -> type.getName();
    };
  }
}
