package io.skippr.connect.schema;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/** Literal building blocks shared by the schema tests. */
final class Samples {
  /** The placeholder inferred for a null value, spelled out. */
  static final Schema NULL_ONLY =
      SchemaBuilder.string()
          .optional()
          .parameter("io.skippr.connect.schema.null.only", "true")
          .build();

  private Samples() {}

  /** A JSON-like object with keys in the given order: {@code obj("a", 1L, "b", "x")}. */
  static Map<String, Object> obj(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
