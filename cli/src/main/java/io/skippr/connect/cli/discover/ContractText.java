package io.skippr.connect.cli.discover;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.SchemaMarkers;
import io.skippr.connect.schema.Schemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Renders contracts for people: per namespace an indented field tree with each field's type,
 * nullability and inference flag, columns aligned:
 *
 * <pre>
 * orders  (120 records, sha256:...)
 *   created_at  timestamp      nullable
 *   items       array&lt;struct&gt;  nullable
 *     sku       string         nullable
 *   note        string         nullable  null-only
 * </pre>
 *
 * and as JSON, the same document {@code skippr discover} saves.
 */
public final class ContractText {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String INDENT = "  ";

  private record Row(String name, String type, boolean nullable, String flag) {}

  private ContractText() {}

  /** The contracts as text; {@code records} gives sample sizes by namespace (may be empty). */
  public static String text(List<Contract> contracts, Map<String, Integer> records) {
    StringBuilder out = new StringBuilder();
    for (Contract contract : contracts) {
      if (out.length() > 0) {
        out.append('\n');
      }
      Integer count = records.get(contract.namespace());
      out.append(contract.namespace())
          .append("  (")
          .append(count == null ? "" : count + (count == 1 ? " record, " : " records, "))
          .append(contract.fingerprint())
          .append(")\n");
      List<Row> rows = new ArrayList<>();
      fields(contract.schema(), INDENT, rows);
      appendRows(rows, out);
    }
    return out.toString();
  }

  /** The contracts as the JSON document of a pipeline's metadata.json. */
  public static String json(List<Contract> contracts) {
    ObjectNode document = JSON.createObjectNode();
    document.put("formatVersion", Contract.FORMAT_VERSION);
    contracts.forEach(c -> document.withArray("contracts").add(c.toJsonNode()));
    try {
      return JSON.writeValueAsString(document) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write contracts as JSON", e);
    }
  }

  private static void appendRows(List<Row> rows, StringBuilder out) {
    int nameWidth = rows.stream().mapToInt(r -> r.name().length()).max().orElse(0);
    int typeWidth = rows.stream().mapToInt(r -> r.type().length()).max().orElse(0);
    for (Row row : rows) {
      StringBuilder line = new StringBuilder();
      line.append(pad(row.name(), nameWidth))
          .append("  ")
          .append(pad(row.type(), typeWidth))
          .append("  ")
          .append(row.nullable() ? "nullable" : "required");
      if (!row.flag().isEmpty()) {
        line.append("  ").append(row.flag());
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }

  private static void fields(Schema struct, String indent, List<Row> rows) {
    for (Field field : struct.fields()) {
      Schema schema = field.schema();
      rows.add(new Row(indent + field.name(), type(schema), schema.isOptional(), flag(schema)));
      Schema inner = innermost(schema);
      if (inner.type() == Schema.Type.STRUCT) {
        fields(inner, indent + INDENT, rows);
      }
    }
  }

  /** The struct, or the element/value type arrays and maps hold (recursively). */
  private static Schema innermost(Schema schema) {
    return switch (schema.type()) {
      case ARRAY, MAP -> innermost(schema.valueSchema());
      default -> schema;
    };
  }

  static String type(Schema schema) {
    return switch (schema.type()) {
      case ARRAY -> "array<" + type(schema.valueSchema()) + ">";
      case MAP -> "map<" + type(schema.keySchema()) + ", " + type(schema.valueSchema()) + ">";
      default ->
          Decimal.LOGICAL_NAME.equals(schema.name())
              ? "decimal(" + schema.parameters().get(Decimal.SCALE_FIELD) + ")"
              : Schemas.typeName(schema);
    };
  }

  private static String flag(Schema schema) {
    if (SchemaMarkers.isNullOnly(schema)) {
      return "null-only (no value seen yet)";
    }
    if (!SchemaMarkers.conflictTypes(schema).isEmpty()) {
      return "type-conflict (" + String.join(", ", SchemaMarkers.conflictTypes(schema)) + ")";
    }
    if (schema.type() == Schema.Type.ARRAY || schema.type() == Schema.Type.MAP) {
      String inner = flag(schema.valueSchema());
      return inner.isEmpty() ? "" : "elements: " + inner;
    }
    return "";
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(Math.max(0, width - text.length()));
  }
}
