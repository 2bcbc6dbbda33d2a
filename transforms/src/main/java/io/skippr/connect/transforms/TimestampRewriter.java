package io.skippr.connect.transforms;

import io.skippr.connect.schema.Schemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Rewrites the configured fields of a Struct (with its schema) or a Map value into timestamps.
 * Paths go through nested structs and maps; an array on the way applies the rest of the path to
 * every element. Values off the paths are kept as they are (the same objects). Output schemas are
 * cached per input schema, so one input schema always gives the same output Schema instance.
 */
final class TimestampRewriter {
  static final int MAX_CACHED_SCHEMAS = 1000;

  private static final Schema TIMESTAMP = Timestamp.SCHEMA;

  private final Node paths = new Node();
  private final TimestampParser parser;
  private final Map<Schema, Schema> schemas = new HashMap<>();

  /** A tree of path segments; a leaf is a field to convert. */
  private static final class Node {
    final Map<String, Node> children = new HashMap<>();
    boolean leaf;
  }

  TimestampRewriter(List<FieldPath> fields, TimestampParser parser) {
    for (FieldPath field : fields) {
      Node node = paths;
      for (String segment : field.segments()) {
        node = node.children.computeIfAbsent(segment, s -> new Node());
      }
      node.leaf = true;
    }
    this.parser = parser;
  }

  /** The output schema for a Struct value's schema. */
  Schema schema(Schema input) {
    Schema cached = schemas.get(input);
    if (cached == null) {
      cached = rewriteSchema(input, paths);
      if (schemas.size() >= MAX_CACHED_SCHEMAS) {
        schemas.clear();
      }
      schemas.put(input, cached);
    }
    return cached;
  }

  /** The Struct rewritten to {@code output} (from {@link #schema}). */
  Struct struct(Struct input, Schema output) {
    return (Struct) rewriteStruct(input, output, paths, "");
  }

  /**
   * A copy of a schemaless map with the fields on the paths converted to {@code java.util.Date}.
   */
  Map<?, ?> map(Map<?, ?> input) {
    return rewriteMap(input, paths, "");
  }

  private static Schema rewriteSchema(Schema schema, Node node) {
    if (schema.type() == Schema.Type.ARRAY) {
      Schema element = rewriteSchema(schema.valueSchema(), node);
      if (element == schema.valueSchema()) {
        return schema;
      }
      SchemaBuilder array = SchemaBuilder.array(element).doc(schema.doc());
      return schema.isOptional() ? array.optional().build() : array.build();
    }
    return schema.type() == Schema.Type.STRUCT ? rewriteStructSchema(schema, node) : schema;
  }

  private static Schema rewriteStructSchema(Schema schema, Node node) {
    SchemaBuilder struct = SchemaBuilder.struct().name(schema.name()).version(schema.version());
    struct.doc(schema.doc());
    if (schema.parameters() != null && !schema.parameters().isEmpty()) {
      struct.parameters(schema.parameters());
    }
    boolean changed = false;
    for (Field field : schema.fields()) {
      Schema fieldSchema = rewriteField(field.schema(), node.children.get(field.name()));
      changed |= fieldSchema != field.schema();
      struct.field(field.name(), fieldSchema);
    }
    if (!changed) {
      return schema;
    }
    return schema.isOptional() ? struct.optional().build() : struct.build();
  }

  private static Schema rewriteField(Schema fieldSchema, Node child) {
    if (child == null) {
      return fieldSchema;
    }
    if (!child.leaf) {
      return rewriteSchema(fieldSchema, child);
    }
    if (Timestamp.LOGICAL_NAME.equals(fieldSchema.name())) {
      return fieldSchema;
    }
    return Schemas.withOptional(TIMESTAMP, fieldSchema.isOptional());
  }

  private Object rewriteStruct(Object value, Schema output, Node node, String path) {
    if (value == null) {
      return null;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        out.add(rewriteStruct(list.get(i), output.valueSchema(), node, path + "[" + i + "]"));
      }
      return out;
    }
    if (!(value instanceof Struct struct) || output.type() != Schema.Type.STRUCT) {
      return value;
    }
    Struct out = new Struct(output);
    for (Field field : output.fields()) {
      Object fieldValue = struct.get(field.name());
      Node child = node.children.get(field.name());
      String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
      if (child != null && child.leaf) {
        fieldValue = fieldValue == null ? null : parser.parse(fieldValue, fieldPath);
      } else if (child != null) {
        fieldValue = rewriteStruct(fieldValue, field.schema(), child, fieldPath);
      }
      out.put(field, fieldValue);
    }
    return out;
  }

  private Map<?, ?> rewriteMap(Map<?, ?> map, Node node, String path) {
    Map<Object, Object> out = new LinkedHashMap<>(map);
    for (Map.Entry<String, Node> entry : node.children.entrySet()) {
      Object fieldValue = map.get(entry.getKey());
      if (fieldValue == null) {
        continue;
      }
      String fieldPath = path.isEmpty() ? entry.getKey() : path + "." + entry.getKey();
      out.put(entry.getKey(), rewriteSchemaless(fieldValue, entry.getValue(), fieldPath));
    }
    return out;
  }

  private Object rewriteSchemaless(Object value, Node node, String path) {
    if (node.leaf) {
      return parser.parse(value, path);
    }
    if (value instanceof Map<?, ?> inner) {
      return rewriteMap(inner, node, path);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        Object item = list.get(i);
        out.add(item == null ? null : rewriteSchemaless(item, node, path + "[" + i + "]"));
      }
      return out;
    }
    return value;
  }
}
