package io.skippr.connect.json;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonParser.NumberType;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.math.BigDecimal;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Reads one JSON scalar as a Connect primitive or logical value of a given schema, with the values
 * Kafka's converter gives (its tree keeps floats as exact decimals, so a float is the decimal's
 * nearest float) and the same errors, except that input Kafka would turn into another value is
 * refused ({@link Rejections}).
 */
final class ScalarReader {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private ScalarReader() {}

  static Object primitive(Schema.Type type, JsonParser p) throws IOException {
    return switch (type) {
      case BOOLEAN -> bool(p);
      case INT8, INT16, INT32, INT64 -> integer(type, p);
      case FLOAT32 -> float32(p);
      case FLOAT64 -> float64(p);
      case STRING -> string(p);
      case BYTES -> bytes(p);
      default -> throw new DataException("Unknown schema type: " + type);
    };
  }

  /** The logical types Kafka's converter knows, by schema name; null for any other name. */
  static Object logical(Schema schema, JsonParser p) throws IOException {
    return switch (schema.name()) {
      case Decimal.LOGICAL_NAME -> decimal(schema, p);
      case Date.LOGICAL_NAME -> Date.toLogical(schema, intForLogical("Date", p));
      case Time.LOGICAL_NAME -> Time.toLogical(schema, intForLogical("Time", p));
      case Timestamp.LOGICAL_NAME -> Timestamp.toLogical(schema, timestampMillis(p));
      default -> null;
    };
  }

  static boolean isLogical(String name) {
    return switch (name) {
      case Decimal.LOGICAL_NAME, Date.LOGICAL_NAME, Time.LOGICAL_NAME, Timestamp.LOGICAL_NAME ->
          true;
      default -> false;
    };
  }

  /** A number without a schema: INT64 for integers, FLOAT64 for the rest, as Kafka reads them. */
  static Object schemalessNumber(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
      if (p.getNumberType() == NumberType.BIG_INTEGER) {
        throw Rejections.outOfRange(p, Schema.Type.INT64);
      }
      return p.getLongValue();
    }
    return float64(p);
  }

  private static Boolean bool(JsonParser p) {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_TRUE) {
      return Boolean.TRUE;
    }
    if (t == JsonToken.VALUE_FALSE) {
      return Boolean.FALSE;
    }
    throw Rejections.wrongType(p, Schema.Type.BOOLEAN, "a JSON boolean");
  }

  private static Object integer(Schema.Type type, JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    long value;
    if (t == JsonToken.VALUE_NUMBER_INT) {
      if (p.getNumberType() == NumberType.BIG_INTEGER) {
        throw Rejections.outOfRange(p, type);
      }
      value = p.getLongValue();
    } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      value = integralDecimal(type, p);
    } else {
      throw Rejections.wrongType(p, type, "a JSON number");
    }
    return switch (type) {
      case INT8 -> {
        if (value < Byte.MIN_VALUE || value > Byte.MAX_VALUE) {
          throw Rejections.outOfRange(p, type);
        }
        yield (byte) value;
      }
      case INT16 -> {
        if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
          throw Rejections.outOfRange(p, type);
        }
        yield (short) value;
      }
      case INT32 -> {
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
          throw Rejections.outOfRange(p, type);
        }
        yield (int) value;
      }
      default -> value;
    };
  }

  /** 1.0 or 1e2 in an integer field: Kafka truncates the decimal; whole ones are kept here. */
  private static long integralDecimal(Schema.Type type, JsonParser p) throws IOException {
    BigDecimal d = p.getDecimalValue();
    if (d.compareTo(LONG_MIN) < 0 || d.compareTo(LONG_MAX) > 0) {
      throw Rejections.outOfRange(p, type);
    }
    if (d.signum() != 0 && d.scale() > 0 && d.stripTrailingZeros().scale() > 0) {
      throw Rejections.fraction(p, type);
    }
    return d.longValue();
  }

  private static Float float32(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    float f;
    if (t == JsonToken.VALUE_NUMBER_INT) {
      f =
          p.getNumberType() == NumberType.BIG_INTEGER
              ? p.getBigIntegerValue().floatValue()
              : (float) p.getLongValue();
    } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      // Kafka's tree holds the exact decimal: its float is that decimal's, rounded once (a
      // parser's float may go through a double, and zeros lose their sign in a decimal).
      f = p.getDecimalValue().floatValue();
    } else if (t == JsonToken.VALUE_STRING) {
      return (float) nonFinite(Schema.Type.FLOAT32, p);
    } else {
      throw Rejections.wrongType(p, Schema.Type.FLOAT32, "a JSON number");
    }
    if (Float.isInfinite(f)) {
      throw Rejections.outOfRange(p, Schema.Type.FLOAT32);
    }
    return f;
  }

  private static Double float64(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    double d;
    if (t == JsonToken.VALUE_NUMBER_INT) {
      d =
          p.getNumberType() == NumberType.BIG_INTEGER
              ? p.getBigIntegerValue().doubleValue()
              : (double) p.getLongValue();
    } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      d = p.getDoubleValue();
      if (d == 0d || Double.isInfinite(d)) {
        // Kafka's exact decimal decides the sign of a zero and whether the text overflows.
        d = p.getDecimalValue().doubleValue();
      }
    } else if (t == JsonToken.VALUE_STRING) {
      return nonFinite(Schema.Type.FLOAT64, p);
    } else {
      throw Rejections.wrongType(p, Schema.Type.FLOAT64, "a JSON number");
    }
    if (Double.isInfinite(d)) {
      throw Rejections.outOfRange(p, Schema.Type.FLOAT64);
    }
    return d;
  }

  /**
   * NaN and the infinities, which Kafka's converter (like this one) writes as the strings Java
   * prints for them, and which it reads back as 0.
   */
  private static double nonFinite(Schema.Type type, JsonParser p) throws IOException {
    return switch (p.getText()) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> throw Rejections.wrongType(p, type, "a JSON number");
    };
  }

  private static String string(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw Rejections.wrongType(p, Schema.Type.STRING, "a JSON string");
    }
    return p.getText();
  }

  private static byte[] bytes(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw Rejections.wrongType(p, Schema.Type.BYTES, "a JSON string of base64");
    }
    try {
      return base64(p.getText());
    } catch (IllegalArgumentException e) {
      throw new DataException("Invalid bytes field", e);
    }
  }

  /** Decodes as Jackson's TextNode does for Kafka's converter: trimmed, the default variant. */
  private static byte[] base64(String text) {
    String trimmed = text.trim();
    ByteArrayBuilder out = new ByteArrayBuilder(Math.max(16, Math.min(0x10000, trimmed.length())));
    Base64Variants.getDefaultVariant().decode(trimmed, out);
    return out.toByteArray();
  }

  private static BigDecimal decimal(Schema schema, JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
      return p.getDecimalValue();
    }
    if (t == JsonToken.VALUE_STRING) {
      String text = p.getText();
      try {
        return Decimal.toLogical(schema, base64(text));
      } catch (Exception e) {
        throw new DataException("Invalid bytes for Decimal field", e);
      }
    }
    throw new DataException(
        "Invalid type for Decimal, underlying representation should be numeric or bytes but was "
            + Rejections.nodeType(t));
  }

  private static int intForLogical(String logical, JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != NumberType.INT) {
      throw new DataException(
          "Invalid type for "
              + logical
              + ", underlying representation should be integer but was "
              + Rejections.nodeType(p.currentToken()));
    }
    return p.getIntValue();
  }

  private static long timestampMillis(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
      throw new DataException(
          "Invalid type for Timestamp, underlying representation should be integral but was "
              + Rejections.nodeType(p.currentToken()));
    }
    if (p.getNumberType() == NumberType.BIG_INTEGER) {
      throw Rejections.outOfRange(p, Schema.Type.INT64, new java.util.Date(0));
    }
    return p.getLongValue();
  }
}
