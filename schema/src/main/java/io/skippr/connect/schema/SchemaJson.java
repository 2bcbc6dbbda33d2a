package io.skippr.connect.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * The JSON form of a schema used in contracts. A type node is {@code {"type": ..., "nullable":
 * ...}} plus, by type: {@code fields} (a list of type nodes with a {@code name}), {@code items}
 * (array element), {@code keys}/{@code values} (map), {@code scale} (decimal); optionally {@code
 * schemaName} (a non-logical schema name), {@code doc}, {@code parameters}, and the inference flags
 * {@code flag} ({@code null-only} | {@code type-conflict}) with {@code seen} (the types of a
 * conflict). Default values are not kept.
 */
public final class SchemaJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private SchemaJson() {}

  /** The JSON type node of a schema. */
  public static ObjectNode write(Schema schema) {
    ObjectNode node = NODES.objectNode();
    writeInto(schema, node);
    return node;
  }

  /** Writes the type of {@code schema} into an existing object (e.g. a field node). */
  public static void writeInto(Schema schema, ObjectNode node) {
    node.put("type", Schemas.typeName(schema));
    node.put("nullable", schema.isOptional());
    String logical = Schemas.logicalTypeName(schema);
    if (schema.name() != null && logical == null) {
      node.put("schemaName", schema.name());
    }
    if (schema.doc() != null) {
      node.put("doc", schema.doc());
    }
    writeParameters(schema, node, "decimal".equals(logical));
    writeFlags(schema, node);
    switch (schema.type()) {
      case STRUCT -> {
        ArrayNode fields = node.putArray("fields");
        for (Field field : schema.fields()) {
          ObjectNode fieldNode = fields.addObject();
          fieldNode.put("name", field.name());
          writeInto(field.schema(), fieldNode);
        }
      }
      case ARRAY -> node.set("items", write(schema.valueSchema()));
      case MAP -> {
        node.set("keys", write(schema.keySchema()));
        node.set("values", write(schema.valueSchema()));
      }
      default -> {
        // primitives are complete
      }
    }
  }

  private static void writeParameters(Schema schema, ObjectNode node, boolean decimal) {
    Map<String, String> parameters = SchemaMarkers.typeParameters(schema);
    if (decimal) {
      node.put("scale", Integer.parseInt(parameters.remove(Decimal.SCALE_FIELD)));
    }
    if (!parameters.isEmpty()) {
      ObjectNode params = node.putObject("parameters");
      parameters.forEach(params::put);
    }
  }

  private static void writeFlags(Schema schema, ObjectNode node) {
    if (SchemaMarkers.isNullOnly(schema)) {
      node.put("flag", SchemaFlag.Kind.NULL_ONLY.label());
    } else if (!SchemaMarkers.conflictTypes(schema).isEmpty()) {
      node.put("flag", SchemaFlag.Kind.TYPE_CONFLICT.label());
      ArrayNode seen = node.putArray("seen");
      SchemaMarkers.conflictTypes(schema).forEach(seen::add);
    }
  }

  /**
   * Reads a type node.
   *
   * @throws IllegalArgumentException naming the path when the node is malformed
   */
  public static Schema read(JsonNode node) {
    return read(node, "");
  }

  private static Schema read(JsonNode node, String path) {
    String type = text(node, "type", path);
    SchemaBuilder builder = builderFor(type, node, path);
    if (node.hasNonNull("schemaName")) {
      builder.name(node.get("schemaName").asText());
    }
    if (node.hasNonNull("doc")) {
      builder.doc(node.get("doc").asText());
    }
    JsonNode parameters = node.get("parameters");
    if (parameters != null && parameters.isObject()) {
      parameters
          .fields()
          .forEachRemaining(e -> builder.parameter(e.getKey(), e.getValue().asText()));
    }
    readFlags(node, builder, path);
    if (!node.has("nullable") || node.get("nullable").asBoolean()) {
      builder.optional();
    }
    return builder.build();
  }

  private static SchemaBuilder builderFor(String type, JsonNode node, String path) {
    return switch (type) {
      case "boolean" -> SchemaBuilder.bool();
      case "int8" -> SchemaBuilder.int8();
      case "int16" -> SchemaBuilder.int16();
      case "int32" -> SchemaBuilder.int32();
      case "int64" -> SchemaBuilder.int64();
      case "float" -> SchemaBuilder.float32();
      case "double" -> SchemaBuilder.float64();
      case "string" -> SchemaBuilder.string();
      case "bytes" -> SchemaBuilder.bytes();
      case "timestamp" -> Timestamp.builder();
      case "date" -> Date.builder();
      case "time" -> Time.builder();
      case "decimal" -> Decimal.builder(node.path("scale").asInt(0));
      case "struct" -> structBuilder(node, path);
      case "array" -> SchemaBuilder.array(read(required(node, "items", path), path + "[]"));
      case "map" ->
          SchemaBuilder.map(
              read(required(node, "keys", path), path + "{key}"),
              read(required(node, "values", path), path + "{}"));
      default -> throw new IllegalArgumentException(at(path) + "unknown type \"" + type + "\"");
    };
  }

  private static SchemaBuilder structBuilder(JsonNode node, String path) {
    SchemaBuilder struct = SchemaBuilder.struct();
    JsonNode fields = node.get("fields");
    if (fields == null || !fields.isArray()) {
      throw new IllegalArgumentException(at(path) + "a struct needs a \"fields\" list");
    }
    for (Iterator<JsonNode> it = fields.elements(); it.hasNext(); ) {
      JsonNode field = it.next();
      String name = text(field, "name", path);
      String fieldPath = path.isEmpty() ? name : path + "." + name;
      if (struct.field(name) != null) {
        throw new IllegalArgumentException(at(fieldPath) + "duplicate field");
      }
      struct.field(name, read(field, fieldPath));
    }
    return struct;
  }

  private static void readFlags(JsonNode node, SchemaBuilder builder, String path) {
    if (!node.hasNonNull("flag")) {
      return;
    }
    SchemaFlag.Kind kind;
    try {
      kind = SchemaFlag.Kind.fromLabel(node.get("flag").asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(at(path) + e.getMessage(), e);
    }
    if (kind == SchemaFlag.Kind.NULL_ONLY) {
      builder.parameter(SchemaMarkers.NULL_ONLY, "true");
      return;
    }
    TreeSet<String> seen = new TreeSet<>();
    node.path("seen").forEach(t -> seen.add(t.asText()));
    if (seen.isEmpty()) {
      seen.addAll(Arrays.asList("unknown"));
    }
    builder.parameter(SchemaMarkers.CONFLICT, String.join(",", seen));
  }

  private static JsonNode required(JsonNode node, String key, String path) {
    JsonNode child = node.get(key);
    if (child == null || !child.isObject()) {
      throw new IllegalArgumentException(at(path) + "missing \"" + key + "\"");
    }
    return child;
  }

  private static String text(JsonNode node, String key, String path) {
    JsonNode child = node.get(key);
    if (child == null || !child.isTextual()) {
      throw new IllegalArgumentException(at(path) + "missing \"" + key + "\"");
    }
    return child.asText();
  }

  private static String at(String path) {
    return (path.isEmpty() ? "(root)" : path) + ": ";
  }
}
