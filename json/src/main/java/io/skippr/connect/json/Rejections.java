package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import org.apache.kafka.connect.data.Schema;

/**
 * Errors for input that Kafka's converter turns into a value other than the one written (a string
 * read as 0, 300 read as 44 in an int8, 2^64 read as 0 without a schema): this converter refuses
 * such input instead. Messages name the place (a JSON pointer into the payload) and the types,
 * never the value, which may be sensitive.
 */
final class Rejections {
  private Rejections() {}

  static LossyValueException wrongType(JsonParser p, Schema.Type type, String expected) {
    return new LossyValueException(
        "Invalid JSON "
            + nodeType(p.currentToken())
            + " for "
            + type
            + " at "
            + where(p)
            + ": expected "
            + expected
            + " (Kafka's JsonConverter would read it as a value other than the one written)",
        standIn(type));
  }

  static LossyValueException outOfRange(JsonParser p, Schema.Type type) {
    return outOfRange(p, type, standIn(type));
  }

  static LossyValueException outOfRange(JsonParser p, Schema.Type type, Object standIn) {
    return new LossyValueException(
        "Invalid JSON number for "
            + type
            + " at "
            + where(p)
            + ": out of range (Kafka's JsonConverter would read it as a value other than the one"
            + " written)",
        standIn);
  }

  static LossyValueException fraction(JsonParser p, Schema.Type type) {
    return new LossyValueException(
        "Invalid JSON number for "
            + type
            + " at "
            + where(p)
            + ": it has a fraction (Kafka's JsonConverter would drop it)",
        standIn(type));
  }

  /** A value of the class Kafka's converter gives for this type (strings and bytes: null). */
  private static Object standIn(Schema.Type type) {
    return switch (type) {
      case BOOLEAN -> Boolean.FALSE;
      case INT8 -> (byte) 0;
      case INT16 -> (short) 0;
      case INT32 -> 0;
      case INT64 -> 0L;
      case FLOAT32 -> 0f;
      case FLOAT64 -> 0d;
      default -> null;
    };
  }

  /** The name Jackson's tree gives the node this token starts, as Kafka's messages print it. */
  static String nodeType(JsonToken token) {
    if (token == null) {
      return "MISSING";
    }
    return switch (token) {
      case START_OBJECT -> "OBJECT";
      case START_ARRAY -> "ARRAY";
      case VALUE_STRING -> "STRING";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "NUMBER";
      case VALUE_TRUE, VALUE_FALSE -> "BOOLEAN";
      case VALUE_NULL -> "NULL";
      default -> "POJO";
    };
  }

  /** A JSON pointer to the current value within the payload, or "the top level". */
  static String where(JsonParser p) {
    JsonStreamContext context = p.getParsingContext();
    JsonToken token = p.currentToken();
    boolean opensContainer = token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY;
    if (opensContainer && context.getParent() != null) {
      context = context.getParent();
    }
    String pointer = context.pathAsPointer().toString();
    return pointer.isEmpty() ? "the top level" : pointer;
  }
}
