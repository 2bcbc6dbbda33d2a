package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;

/**
 * An envelope's schema (Kafka's JSON form: type, optional, name, version, doc, parameters, default,
 * items, keys, values, fields) as a Connect schema, built as Kafka's converter builds it, with its
 * messages and its leniency (a non-boolean "optional" means required, a version is truncated to an
 * int). Called once per distinct schema: callers cache the result.
 */
final class SchemaReader {
  private final ValueReader values;

  SchemaReader(ValueReader values) {
    this.values = values;
  }

  /** The schema of this node; null for a JSON null (a schemaless envelope). */
  Schema read(JsonNode json) {
    if (json.isNull()) {
      return null;
    }
    JsonNode typeNode = json.get("type");
    if (typeNode == null || !typeNode.isTextual()) {
      throw new DataException("Schema must contain 'type' field");
    }
    SchemaBuilder builder = builderFor(typeNode.textValue(), json);
    JsonNode optional = json.get("optional");
    if (optional != null && optional.isBoolean() && optional.booleanValue()) {
      builder.optional();
    } else {
      builder.required();
    }
    metadata(json, builder);
    parameters(json.get("parameters"), builder);
    JsonNode defaultValue = json.get("default");
    if (defaultValue != null) {
      builder.defaultValue(defaultOf(builder, defaultValue));
    }
    return builder.build();
  }

  private static void metadata(JsonNode json, SchemaBuilder builder) {
    JsonNode name = json.get("name");
    if (name != null && name.isTextual()) {
      builder.name(name.textValue());
    }
    JsonNode version = json.get("version");
    if (version != null && version.isIntegralNumber()) {
      builder.version(version.intValue());
    }
    JsonNode doc = json.get("doc");
    if (doc != null && doc.isTextual()) {
      builder.doc(doc.textValue());
    }
  }

  private SchemaBuilder builderFor(String type, JsonNode json) {
    return switch (type) {
      case "boolean" -> SchemaBuilder.bool();
      case "int8" -> SchemaBuilder.int8();
      case "int16" -> SchemaBuilder.int16();
      case "int32" -> SchemaBuilder.int32();
      case "int64" -> SchemaBuilder.int64();
      case "float" -> SchemaBuilder.float32();
      case "double" -> SchemaBuilder.float64();
      case "bytes" -> SchemaBuilder.bytes();
      case "string" -> SchemaBuilder.string();
      case "array" -> array(json);
      case "map" -> map(json);
      case "struct" -> struct(json);
      default -> throw new DataException("Unknown schema type: " + type);
    };
  }

  private SchemaBuilder array(JsonNode json) {
    JsonNode items = json.get("items");
    if (items == null || items.isNull()) {
      throw new DataException("Array schema did not specify the element type");
    }
    return SchemaBuilder.array(read(items));
  }

  private SchemaBuilder map(JsonNode json) {
    JsonNode keys = json.get("keys");
    if (keys == null) {
      throw new DataException("Map schema did not specify the key type");
    }
    JsonNode values = json.get("values");
    if (values == null) {
      throw new DataException("Map schema did not specify the value type");
    }
    return SchemaBuilder.map(read(keys), read(values));
  }

  private SchemaBuilder struct(JsonNode json) {
    SchemaBuilder builder = SchemaBuilder.struct();
    JsonNode fields = json.get("fields");
    if (fields == null || !fields.isArray()) {
      throw new DataException("Struct schema's \"fields\" argument is not an array.");
    }
    for (JsonNode field : fields) {
      JsonNode name = field.get("field");
      if (name == null || !name.isTextual()) {
        throw new DataException("Struct schema's field name not specified properly");
      }
      builder.field(name.asText(), read(field));
    }
    return builder;
  }

  private static void parameters(JsonNode parameters, SchemaBuilder builder) {
    if (parameters == null || !parameters.isObject()) {
      return;
    }
    for (Map.Entry<String, JsonNode> entry : parameters.properties()) {
      JsonNode value = entry.getValue();
      if (!value.isTextual()) {
        throw new DataException("Schema parameters must have string values.");
      }
      builder.parameter(entry.getKey(), value.textValue());
    }
  }

  /** The default read against the schema built so far, as Kafka reads it. */
  private Object defaultOf(SchemaBuilder builder, JsonNode json) {
    try (JsonParser p = json.traverse()) {
      p.nextToken();
      return values.read(builder, p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
