package io.skippr.connect.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Iterator;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * The test's own statement of the documented rule, on Kafka's tree: whether Kafka's converter, for
 * this JSON and schema, produces a value other than the one written (a JSON string read as 0, 300
 * read as 44 in an int8, 1.5 read as 1, 1e400 read as infinity, an integer beyond int64 truncated
 * without a schema, an array read from an object's values, a string read as null). Where it does,
 * the streaming converter may refuse the record; anywhere else it must do what Kafka does.
 */
final class KafkaLosses {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private KafkaLosses() {}

  /** Whether reading this node with this schema (null: schemaless) loses what was written. */
  static boolean lossy(Schema schema, JsonNode node) {
    if (node == null || node.isNull()) {
      return false;
    }
    if (schema == null) {
      return schemaless(node);
    }
    if (schema.name() != null) {
      switch (schema.name()) {
        case Decimal.LOGICAL_NAME, Date.LOGICAL_NAME, Time.LOGICAL_NAME:
          return false;
        case Timestamp.LOGICAL_NAME:
          return node.isBigInteger();
        default:
          break;
      }
    }
    return switch (schema.type()) {
      case BOOLEAN -> !node.isBoolean();
      case INT8 -> !fits(node, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case INT16 -> !fits(node, Short.MIN_VALUE, Short.MAX_VALUE);
      case INT32 -> !fits(node, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case INT64 -> !fits(node, Long.MIN_VALUE, Long.MAX_VALUE);
      case FLOAT32 -> !node.isNumber() || Float.isInfinite(node.floatValue());
      case FLOAT64 -> !node.isNumber() || Double.isInfinite(node.doubleValue());
      case STRING, BYTES -> !node.isTextual();
      case ARRAY -> !node.isArray() || anyLossy(schema.valueSchema(), node.elements());
      case MAP -> map(schema, node);
      case STRUCT -> struct(schema, node);
    };
  }

  /** Defaults in an envelope's schema JSON, walked beside the schema Kafka built from it. */
  static boolean lossyDefaults(JsonNode json, Schema schema) {
    if (schema == null || json == null || !json.isObject()) {
      return false;
    }
    if (json.has("default") && lossy(schema, json.get("default"))) {
      return true;
    }
    return switch (schema.type()) {
      case ARRAY -> lossyDefaults(json.get("items"), schema.valueSchema());
      case MAP ->
          lossyDefaults(json.get("keys"), schema.keySchema())
              || lossyDefaults(json.get("values"), schema.valueSchema());
      case STRUCT -> {
        boolean any = false;
        for (Field field : schema.fields()) {
          any |= lossyDefaults(json.get("fields").get(field.index()), field.schema());
        }
        yield any;
      }
      default -> false;
    };
  }

  private static boolean schemaless(JsonNode node) {
    if (node.isBigInteger()) {
      return true;
    }
    if (node.isFloatingPointNumber()) {
      return Double.isInfinite(node.doubleValue());
    }
    return anyLossy(null, node.elements());
  }

  private static boolean fits(JsonNode node, long min, long max) {
    if (!node.isNumber()) {
      return false;
    }
    BigDecimal value = node.decimalValue();
    if (value.compareTo(LONG_MIN) < 0 || value.compareTo(LONG_MAX) > 0) {
      return false;
    }
    if (value.signum() != 0 && value.scale() > 0 && value.stripTrailingZeros().scale() > 0) {
      return false;
    }
    long v = value.longValue();
    return v >= min && v <= max;
  }

  private static boolean map(Schema schema, JsonNode node) {
    if (schema.keySchema().type() == Schema.Type.STRING) {
      return node.isObject() && anyLossy(schema.valueSchema(), node.elements());
    }
    if (!node.isArray()) {
      return false;
    }
    for (JsonNode entry : node) {
      if (entry.isArray()
          && entry.size() == 2
          && (lossy(schema.keySchema(), entry.get(0))
              || lossy(schema.valueSchema(), entry.get(1)))) {
        return true;
      }
    }
    return false;
  }

  private static boolean struct(Schema schema, JsonNode node) {
    if (!node.isObject()) {
      return false;
    }
    for (Field field : schema.fields()) {
      if (lossy(field.schema(), node.get(field.name()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean anyLossy(Schema schema, Iterator<JsonNode> nodes) {
    while (nodes.hasNext()) {
      if (lossy(schema, nodes.next())) {
        return true;
      }
    }
    return false;
  }
}
