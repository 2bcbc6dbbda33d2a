package io.skippr.connect.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * The schema contract of one namespace (a table or stream) of a pipeline: its fields with types,
 * nullability and nesting, the flags inference left for review, and a fingerprint of its shape.
 *
 * <p>JSON form (format version 1):
 *
 * <pre>{@code
 * {"formatVersion": 1, "namespace": "orders", "fingerprint": "sha256:...",
 *  "type": "struct", "nullable": true,
 *  "fields": [{"name": "id", "type": "int64", "nullable": false}, ...],
 *  "flags": [{"path": "note", "kind": "null-only", "detail": ""}]}
 * }</pre>
 *
 * The root is a struct type node as {@link SchemaJson} writes it. {@code fingerprint} and {@code
 * flags} are derived: written for readers, recomputed (from the per-field {@code flag}) on read, so
 * a hand-edited contract never carries a stale fingerprint.
 *
 * @param namespace the table or stream the contract describes (never null)
 * @param schema the struct schema
 */
public record Contract(String namespace, Schema schema) {
  /** The contract JSON format version this code writes and reads. */
  public static final int FORMAT_VERSION = 1;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public Contract {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(schema, "schema");
    if (schema.type() != Schema.Type.STRUCT) {
      throw new IllegalArgumentException("a contract describes a struct, not " + schema.type());
    }
  }

  /** The top-level fields. */
  public List<Field> fields() {
    return schema.fields();
  }

  /** Conflicts and null-only fields inference flagged. */
  public List<SchemaFlag> flags() {
    return SchemaMarkers.flags(schema);
  }

  /** See {@link SchemaFingerprint#of(Schema)}. */
  public String fingerprint() {
    return SchemaFingerprint.of(schema);
  }

  /** The contract as a JSON object. */
  public ObjectNode toJsonNode() {
    ObjectNode node = JSON.createObjectNode();
    node.put("formatVersion", FORMAT_VERSION);
    node.put("namespace", namespace);
    node.put("fingerprint", fingerprint());
    SchemaJson.writeInto(schema, node);
    ArrayNode flags = node.putArray("flags");
    for (SchemaFlag flag : flags()) {
      flags
          .addObject()
          .put("path", flag.path())
          .put("kind", flag.kind().label())
          .put("detail", flag.detail());
    }
    return node;
  }

  /** The contract as indented JSON text. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(toJsonNode());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write contract JSON", e);
    }
  }

  /**
   * Reads a contract.
   *
   * @throws IllegalArgumentException when the JSON is malformed or of an unknown format version
   */
  public static Contract fromJson(String json) {
    try {
      return fromJsonNode(JSON.readTree(json));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "contract is not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** Reads a contract from a JSON object; see {@link #fromJson(String)}. */
  public static Contract fromJsonNode(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("a contract is a JSON object");
    }
    int version = node.path("formatVersion").asInt(-1);
    if (version != FORMAT_VERSION) {
      throw new IllegalArgumentException(
          "contract format version "
              + node.path("formatVersion")
              + " is not supported (this version reads "
              + FORMAT_VERSION
              + ")");
    }
    JsonNode namespace = node.get("namespace");
    if (namespace == null || !namespace.isTextual()) {
      throw new IllegalArgumentException("contract has no \"namespace\"");
    }
    return new Contract(namespace.asText(), SchemaJson.read(node));
  }
}
