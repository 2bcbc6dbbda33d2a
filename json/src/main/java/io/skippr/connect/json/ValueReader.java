package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Reads one JSON value from a parser straight into a Connect value: the parser stands on the
 * value's first token (or on no token, for the empty input Kafka reads as a missing node) and is
 * left on its last. Values are checked against the schema while they are read, so a struct's fields
 * are put once, already valid.
 *
 * <p>Where a value has several problems, the one reported is the one Kafka's converter reports:
 * struct fields are checked in schema order (a field's error waits until the struct ends), and a
 * map entry's length before its contents.
 */
final class ValueReader {
  /** A struct field not seen in the object. */
  private static final Object MISSING = new Object();

  /** A struct field whose value failed; its error waits for the end of the object. */
  private static final Object FAILED = new Object();

  private final boolean replaceNullWithDefault;
  private final boolean lenient;

  /**
   * With {@code lenient}, input Kafka's converter reads as another value is read as Kafka reads it
   * (in kind: a value of the right class stands in), so that only Kafka's own errors are raised.
   */
  ValueReader(boolean replaceNullWithDefault, boolean lenient) {
    this.replaceNullWithDefault = replaceNullWithDefault;
    this.lenient = lenient;
  }

  Object read(Schema schema, JsonParser p) throws IOException {
    if (!lenient) {
      return value(schema, p);
    }
    try {
      return value(schema, p);
    } catch (LossyValueException e) {
      Skipping.skipValue(p);
      return e.standIn();
    }
  }

  private Object value(Schema schema, JsonParser p) throws IOException {
    if (schema == null) {
      return schemaless(p);
    }
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NULL) {
      return nullValue(schema);
    }
    String name = schema.name();
    if (name != null && ScalarReader.isLogical(name)) {
      return ScalarReader.logical(schema, p);
    }
    return switch (schema.type()) {
      case ARRAY -> array(schema, p);
      case MAP -> map(schema, p);
      case STRUCT -> struct(schema, p);
      default -> ScalarReader.primitive(schema.type(), p);
    };
  }

  /** A JSON null, or a struct field that is not there. */
  Object nullValue(Schema schema) {
    if (schema.defaultValue() != null && replaceNullWithDefault) {
      return schema.defaultValue();
    }
    if (schema.isOptional()) {
      return null;
    }
    throw new DataException("Invalid null value for required " + schema.type() + " field");
  }

  private Object schemaless(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      return null;
    }
    return switch (t) {
      case VALUE_NULL -> null;
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> ScalarReader.schemalessNumber(p);
      case VALUE_STRING -> p.getText();
      case START_ARRAY -> array(null, p);
      case START_OBJECT -> object(p);
      default -> throw new DataException("Unknown schema type: null");
    };
  }

  private List<Object> array(Schema schema, JsonParser p) throws IOException {
    Schema elementSchema = schema == null ? null : schema.valueSchema();
    List<Object> result = new ArrayList<>();
    if (p.currentToken() != JsonToken.START_ARRAY) {
      if (!lenient) {
        throw Rejections.wrongType(p, Schema.Type.ARRAY, "a JSON array");
      }
      return kafkasArray(elementSchema, p, result);
    }
    while (p.nextToken() != JsonToken.END_ARRAY) {
      result.add(read(elementSchema, p));
    }
    return result;
  }

  /** Kafka iterates whatever it gets: an object's values, nothing of a scalar. */
  private List<Object> kafkasArray(Schema elementSchema, JsonParser p, List<Object> result)
      throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      Skipping.skipValue(p);
      return result;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      p.nextToken();
      result.add(read(elementSchema, p));
    }
    return result;
  }

  private Map<Object, Object> map(Schema schema, JsonParser p) throws IOException {
    if (schema.keySchema().type() == Schema.Type.STRING) {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw new DataException(
            "Maps with string fields should be encoded as JSON objects, but found "
                + Rejections.nodeType(p.currentToken()));
      }
      return stringKeyedMap(schema.valueSchema(), p);
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new DataException(
          "Maps with non-string fields should be encoded as JSON array of tuples, but found "
              + Rejections.nodeType(p.currentToken()));
    }
    Map<Object, Object> result = new HashMap<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      mapEntry(schema, p, result);
    }
    return result;
  }

  private Map<Object, Object> stringKeyedMap(Schema valueSchema, JsonParser p) throws IOException {
    Map<Object, Object> result = new HashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      result.put(key, read(valueSchema, p));
    }
    return result;
  }

  /** A schemaless object: its keys in document order, a repeated key's last value. */
  private JsonObject object(JsonParser p) throws IOException {
    JsonObject result = new JsonObject();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      result.put(key, read(null, p));
    }
    return result;
  }

  /** One [key, value] tuple; its length is checked before its contents, as Kafka does. */
  private void mapEntry(Schema schema, JsonParser p, Map<Object, Object> result)
      throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new DataException(
          "Found invalid map entry instead of array tuple: "
              + Rejections.nodeType(p.currentToken()));
    }
    JsonStreamContext tuple = p.getParsingContext();
    Object key = null;
    Object value = null;
    DataException failure = null;
    int size = 0;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (size < 2 && failure == null) {
        try {
          if (size == 0) {
            key = read(schema.keySchema(), p);
          } else {
            value = read(schema.valueSchema(), p);
          }
        } catch (DataException e) {
          failure = e;
          Skipping.finishValue(p, tuple);
        }
      } else {
        Skipping.skipValue(p);
      }
      size++;
    }
    if (size != 2) {
      throw new DataException("Found invalid map entry, expected length 2 but found :" + size);
    }
    if (failure != null) {
      throw failure;
    }
    result.put(key, value);
  }

  private Struct struct(Schema schema, JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new DataException(
          "Structs should be encoded as JSON objects, but found "
              + Rejections.nodeType(p.currentToken()));
    }
    List<Field> fields = schema.fields();
    Object[] values = new Object[fields.size()];
    Arrays.fill(values, MISSING);
    DataException[] failures = null;
    JsonStreamContext object = p.getParsingContext();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      Field field = schema.field(p.currentName());
      p.nextToken();
      if (field == null) {
        Skipping.skipValue(p);
        continue;
      }
      try {
        values[field.index()] = read(field.schema(), p);
      } catch (DataException e) {
        failures = failures == null ? new DataException[values.length] : failures;
        failures[field.index()] = e;
        values[field.index()] = FAILED;
        Skipping.finishValue(p, object);
      }
    }
    return build(schema, fields, values, failures);
  }

  private Struct build(Schema schema, List<Field> fields, Object[] values, DataException[] failed) {
    Struct struct = new Struct(schema.schema());
    for (int i = 0; i < values.length; i++) {
      Object value = values[i];
      if (value == FAILED) {
        throw failed[i];
      }
      Field field = fields.get(i);
      if (value == MISSING) {
        value = nullValue(field.schema());
      }
      // a null for a required field comes only from a lenient read: Kafka's put refuses it
      if (value != null || !field.schema().isOptional()) {
        struct.put(field, value);
      }
    }
    return struct;
  }
}
