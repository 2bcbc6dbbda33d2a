package io.skippr.connect.json;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Equality of Connect values and schemas down to the bytes: byte arrays by content wherever they
 * sit (Connect's own equals compares them by identity inside lists and maps), floats by their bits
 * (0.0 and -0.0 differ, NaN equals NaN), decimals with their scale.
 */
final class ConnectEquality {
  private ConnectEquality() {}

  static boolean schemasEqual(Schema a, Schema b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    boolean same =
        a.type() == b.type()
            && a.isOptional() == b.isOptional()
            && Objects.equals(a.name(), b.name())
            && Objects.equals(a.version(), b.version())
            && Objects.equals(a.doc(), b.doc())
            && Objects.equals(a.parameters(), b.parameters())
            && valuesEqual(a.defaultValue(), b.defaultValue());
    if (!same) {
      return false;
    }
    return switch (a.type()) {
      case ARRAY -> schemasEqual(a.valueSchema(), b.valueSchema());
      case MAP ->
          schemasEqual(a.keySchema(), b.keySchema())
              && schemasEqual(a.valueSchema(), b.valueSchema());
      case STRUCT -> fieldsEqual(a.fields(), b.fields());
      default -> true;
    };
  }

  private static boolean fieldsEqual(List<Field> a, List<Field> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Field x = a.get(i);
      Field y = b.get(i);
      if (!x.name().equals(y.name())
          || x.index() != y.index()
          || !schemasEqual(x.schema(), y.schema())) {
        return false;
      }
    }
    return true;
  }

  static boolean valuesEqual(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      // Connect's map type is the interface: schemaless objects are a JsonObject here, a HashMap
      // in Kafka's converter.
      return mapsEqual(x, y);
    }
    if (a == null || b == null || a.getClass() != b.getClass()) {
      return false;
    }
    if (a instanceof byte[] x) {
      return Arrays.equals(x, (byte[]) b);
    }
    if (a instanceof ByteBuffer x) {
      return x.equals(b);
    }
    if (a instanceof List<?> x) {
      return listsEqual(x, (List<?>) b);
    }
    if (a instanceof Struct x) {
      return structsEqual(x, (Struct) b);
    }
    return a.equals(b);
  }

  private static boolean listsEqual(List<?> a, List<?> b) {
    if (a.size() != b.size()) {
      return false;
    }
    Iterator<?> i = a.iterator();
    Iterator<?> j = b.iterator();
    while (i.hasNext()) {
      if (!valuesEqual(i.next(), j.next())) {
        return false;
      }
    }
    return true;
  }

  private static boolean mapsEqual(Map<?, ?> a, Map<?, ?> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (Map.Entry<?, ?> entry : a.entrySet()) {
      Object key = entry.getKey();
      Object other = null;
      boolean found = false;
      for (Map.Entry<?, ?> candidate : b.entrySet()) {
        if (valuesEqual(key, candidate.getKey())) {
          other = candidate.getValue();
          found = true;
          break;
        }
      }
      if (!found || !valuesEqual(entry.getValue(), other)) {
        return false;
      }
    }
    return true;
  }

  private static boolean structsEqual(Struct a, Struct b) {
    if (!schemasEqual(a.schema(), b.schema())) {
      return false;
    }
    for (Field field : a.schema().fields()) {
      if (!valuesEqual(a.getWithoutDefault(field.name()), b.getWithoutDefault(field.name()))) {
        return false;
      }
    }
    return true;
  }
}
