package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.ConnectSchema;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Writes a Connect value to a generator as the tokens Kafka's converter puts into its tree, in the
 * same order, so the bytes are the ones Kafka's serializer writes; with its errors and its
 * messages. One difference: a {@link ByteBuffer} is written from its position to its limit, where
 * Kafka writes its whole backing array.
 */
final class ValueWriter {
  private final boolean replaceNullWithDefault;
  private final DecimalFormat decimalFormat;

  ValueWriter(boolean replaceNullWithDefault, DecimalFormat decimalFormat) {
    this.replaceNullWithDefault = replaceNullWithDefault;
    this.decimalFormat = decimalFormat;
  }

  void write(Schema schema, Object value, JsonGenerator g) throws IOException {
    if (value == null) {
      writeNull(schema, g);
      return;
    }
    if (schema != null && schema.name() != null && ScalarReader.isLogical(schema.name())) {
      logical(schema, value, g);
      return;
    }
    Schema.Type type = schema == null ? ConnectSchema.schemaType(value.getClass()) : schema.type();
    if (type == null) {
      throw new DataException(
          "Java class " + value.getClass() + " does not have corresponding schema type.");
    }
    try {
      typed(type, schema, value, g);
    } catch (ClassCastException e) {
      String schemaType = schema != null ? schema.type().toString() : "unknown schema";
      throw new DataException("Invalid type for " + schemaType + ": " + value.getClass());
    }
  }

  private void writeNull(Schema schema, JsonGenerator g) throws IOException {
    if (schema == null) {
      g.writeNull();
    } else if (schema.defaultValue() != null && replaceNullWithDefault) {
      write(schema, schema.defaultValue(), g);
    } else if (schema.isOptional()) {
      g.writeNull();
    } else {
      throw new DataException(
          "Conversion error: null value for field that is required and has no default value");
    }
  }

  private void typed(Schema.Type type, Schema schema, Object value, JsonGenerator g)
      throws IOException {
    switch (type) {
      case INT8 -> g.writeNumber((Byte) value);
      case INT16 -> g.writeNumber((Short) value);
      case INT32 -> g.writeNumber((Integer) value);
      case INT64 -> g.writeNumber((Long) value);
      case FLOAT32 -> g.writeNumber((Float) value);
      case FLOAT64 -> g.writeNumber((Double) value);
      case BOOLEAN -> g.writeBoolean((Boolean) value);
      case STRING -> g.writeString(((CharSequence) value).toString());
      case BYTES -> g.writeBinary(bytes(value));
      case ARRAY -> array(schema, (Collection<?>) value, g);
      case MAP -> map(schema, (Map<?, ?>) value, g);
      case STRUCT -> struct(schema, (Struct) value, g);
      default -> throw new DataException("Couldn't convert " + value + " to JSON.");
    }
  }

  private static byte[] bytes(Object value) {
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer window = buffer.duplicate();
      byte[] bytes = new byte[window.remaining()];
      window.get(bytes);
      return bytes;
    }
    throw new DataException("Invalid type for bytes type: " + value.getClass());
  }

  private void array(Schema schema, Collection<?> values, JsonGenerator g) throws IOException {
    Schema elementSchema = schema == null ? null : schema.valueSchema();
    g.writeStartArray();
    for (Object element : values) {
      write(elementSchema, element, g);
    }
    g.writeEndArray();
  }

  private void map(Schema schema, Map<?, ?> map, JsonGenerator g) throws IOException {
    Schema keySchema = schema == null ? null : schema.keySchema();
    Schema valueSchema = schema == null ? null : schema.valueSchema();
    if (!objectMode(schema, map)) {
      g.writeStartArray();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        g.writeStartArray();
        write(keySchema, entry.getKey(), g);
        write(valueSchema, entry.getValue(), g);
        g.writeEndArray();
      }
      g.writeEndArray();
      return;
    }
    if (!plainKeys(keySchema, map)) {
      keyedByText(keySchema, valueSchema, map, g);
      return;
    }
    g.writeStartObject();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      g.writeFieldName((String) entry.getKey());
      write(valueSchema, entry.getValue(), g);
    }
    g.writeEndObject();
  }

  /** Keys that are their own field names: strings, under a key schema that is not logical. */
  private static boolean plainKeys(Schema keySchema, Map<?, ?> map) {
    if (keySchema != null && keySchema.name() != null) {
      return false;
    }
    for (Object key : map.keySet()) {
      if (!(key instanceof String)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Other keys (a null key written as "null", a logical key schema) may give two entries one field
   * name: as in Kafka's tree, the later value replaces the earlier in its place. Values are
   * converted in the map's order (so errors come in Kafka's order) and written once names are
   * settled.
   */
  private void keyedByText(Schema keySchema, Schema valueSchema, Map<?, ?> map, JsonGenerator g)
      throws IOException {
    Map<String, TokenBuffer> fields = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String name = keyText(keySchema, entry.getKey());
      TokenBuffer value = new TokenBuffer(null, false);
      write(valueSchema, entry.getValue(), value);
      fields.put(name, value);
    }
    g.writeStartObject();
    for (Map.Entry<String, TokenBuffer> field : fields.entrySet()) {
      g.writeFieldName(field.getKey());
      field.getValue().serialize(g);
    }
    g.writeEndObject();
  }

  /** String keys make a JSON object; any other key (or key schema) an array of [key, value]. */
  private static boolean objectMode(Schema schema, Map<?, ?> map) {
    if (schema != null) {
      return schema.keySchema().type() == Schema.Type.STRING;
    }
    for (Object key : map.keySet()) {
      if (!(key instanceof String)) {
        return false;
      }
    }
    return true;
  }

  /** The field name Kafka gives a key: the text of the key's JSON node. */
  private String keyText(Schema keySchema, Object key) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = Jackson.RECORD.createGenerator(out)) {
      write(keySchema, key, g);
    }
    return Jackson.RECORD_TREES.readTree(out.toByteArray()).asText();
  }

  private void struct(Schema schema, Struct struct, JsonGenerator g) throws IOException {
    if (!struct.schema().equals(schema)) {
      throw new DataException("Mismatching schema.");
    }
    g.writeStartObject();
    for (Field field : schema.fields()) {
      g.writeFieldName(field.name());
      write(field.schema(), valueWithoutDefault(struct, field), g);
    }
    g.writeEndObject();
  }

  private static Object valueWithoutDefault(Struct struct, Field field) {
    return field.schema().defaultValue() == null
        ? struct.get(field)
        : struct.getWithoutDefault(field.name());
  }

  private void logical(Schema schema, Object value, JsonGenerator g) throws IOException {
    switch (schema.name()) {
      case Decimal.LOGICAL_NAME -> {
        if (!(value instanceof BigDecimal decimal)) {
          throw new DataException(
              "Invalid type for Decimal, expected BigDecimal but was " + value.getClass());
        }
        if (decimalFormat == DecimalFormat.NUMERIC) {
          g.writeNumber(decimal);
        } else {
          g.writeBinary(Decimal.fromLogical(schema, decimal));
        }
      }
      case Date.LOGICAL_NAME -> g.writeNumber(Date.fromLogical(schema, date("Date", value)));
      case Time.LOGICAL_NAME -> g.writeNumber(Time.fromLogical(schema, date("Time", value)));
      default -> g.writeNumber(Timestamp.fromLogical(schema, date("Timestamp", value)));
    }
  }

  private static java.util.Date date(String logical, Object value) {
    if (!(value instanceof java.util.Date date)) {
      throw new DataException(
          "Invalid type for " + logical + ", expected Date but was " + value.getClass());
    }
    return date;
  }
}
