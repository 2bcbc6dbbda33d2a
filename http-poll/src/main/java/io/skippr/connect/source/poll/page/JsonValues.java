package io.skippr.connect.source.poll.page;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as Connect's schemaless values, as the JSON converter and the lake sink read them: objects
 * become maps (in field order), arrays lists, integers {@code Long}, other numbers {@code Double}.
 */
public final class JsonValues {

  private JsonValues() {}

  /**
   * The value of a node.
   *
   * @throws IllegalArgumentException for an integer outside 64 bits or a number outside the double
   *     range (the record is rejected with this reason rather than changed)
   */
  public static Object value(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> e = fields.next();
        map.put(e.getKey(), value(e.getValue()));
      }
      return map;
    } else if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      node.forEach(n -> list.add(value(n)));
      return list;
    } else if (node.isIntegralNumber()) {
      if (!node.canConvertToLong()) {
        throw new IllegalArgumentException("integer " + node + " is outside the 64-bit range");
      }
      return node.longValue();
    } else if (node.isNumber()) {
      double d = node.doubleValue();
      if (Double.isInfinite(d)) {
        throw new IllegalArgumentException("number " + node + " is outside the 64-bit range");
      }
      return d;
    }
    return node.isNull() ? null : node.isBoolean() ? (Object) node.booleanValue() : node.asText();
  }
}
