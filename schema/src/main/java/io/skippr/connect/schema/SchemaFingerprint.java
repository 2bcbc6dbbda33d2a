package io.skippr.connect.schema;

import io.skippr.connect.common.Sha256;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * A stable fingerprint of a schema's shape: field names and order, types, logical types with their
 * parameters, optionality and nesting. Docs, defaults, versions and inference flags do not count,
 * struct names do not count either (they name no column). Files written under schemas with the same
 * fingerprint have the same columns.
 */
public final class SchemaFingerprint {
  private SchemaFingerprint() {}

  /** {@code sha256:} followed by the lowercase hex SHA-256 of {@link #canonical(Schema)}. */
  public static String of(Schema schema) {
    return "sha256:" + Sha256.hex(canonical(schema));
  }

  /**
   * The canonical text of a schema, e.g. {@code struct?{id:int64,tags:array?<string?>}}: type names
   * as in {@link Schemas#typeName}, {@code ?} after optional types, struct fields in order with
   * JSON-quoted names when they contain anything but letters, digits, {@code _ . -}, and parameters
   * of named types in sorted order as {@code (k=v,...)}.
   */
  public static String canonical(Schema schema) {
    StringBuilder out = new StringBuilder();
    append(schema, out);
    return out.toString();
  }

  private static void append(Schema schema, StringBuilder out) {
    out.append(Schemas.typeName(schema));
    if (schema.name() != null && schema.type() != Schema.Type.STRUCT) {
      appendParameters(schema, out);
    }
    if (schema.isOptional()) {
      out.append('?');
    }
    switch (schema.type()) {
      case STRUCT -> {
        out.append('{');
        boolean first = true;
        for (Field field : schema.fields()) {
          out.append(first ? "" : ",");
          first = false;
          appendName(field.name(), out);
          out.append(':');
          append(field.schema(), out);
        }
        out.append('}');
      }
      case ARRAY -> {
        out.append('<');
        append(schema.valueSchema(), out);
        out.append('>');
      }
      case MAP -> {
        out.append('<');
        append(schema.keySchema(), out);
        out.append(',');
        append(schema.valueSchema(), out);
        out.append('>');
      }
      default -> {
        // primitives are complete
      }
    }
  }

  private static void appendParameters(Schema schema, StringBuilder out) {
    Map<String, String> parameters = SchemaMarkers.typeParameters(schema);
    if (Schemas.logicalTypeName(schema) == null) {
      parameters.put("name", schema.name());
    }
    if (parameters.isEmpty()) {
      return;
    }
    out.append('(');
    boolean first = true;
    for (Map.Entry<String, String> entry : parameters.entrySet()) {
      out.append(first ? "" : ",");
      first = false;
      appendName(entry.getKey(), out);
      out.append('=');
      appendName(entry.getValue(), out);
    }
    out.append(')');
  }

  private static boolean isBareNameChar(int c) {
    return c == '_' || c == '.' || c == '-' || Character.isLetterOrDigit(c);
  }

  private static void appendName(String name, StringBuilder out) {
    if (!name.isEmpty() && name.chars().allMatch(SchemaFingerprint::isBareNameChar)) {
      out.append(name);
      return;
    }
    out.append('"');
    for (char c : name.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }
}
