package io.skippr.connect.lake.convert;

import io.skippr.connect.schema.SchemaEvolution;
import io.skippr.connect.schema.Schemas;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/** Explains, naming the field, why a record's schema cannot evolve the table's schema. */
final class SchemaMismatch {
  private SchemaMismatch() {}

  /** The reason, or null when {@code incoming} does evolve {@code current}. */
  static String explain(Schema current, Schema incoming) {
    return explain(current, incoming, "");
  }

  private static String explain(Schema current, Schema incoming, String path) {
    if (SchemaEvolution.evolve(current, incoming).isPresent()) {
      return null;
    }
    if (current.isOptional() != incoming.isOptional()) {
      return at(path)
          + (current.isOptional() ? "optional" : "required")
          + " in the table but "
          + (incoming.isOptional() ? "optional" : "required")
          + " in the record";
    }
    if (current.type() == incoming.type()) {
      switch (current.type()) {
        case STRUCT:
          String inStruct = explainStruct(current, incoming, path);
          if (inStruct != null) {
            return inStruct;
          }
          break;
        case ARRAY:
          return explain(current.valueSchema(), incoming.valueSchema(), path + "[]");
        case MAP:
          String keys = explain(current.keySchema(), incoming.keySchema(), path + "{key}");
          return keys != null
              ? keys
              : explain(current.valueSchema(), incoming.valueSchema(), path + "{}");
        default:
          break;
      }
    }
    return at(path)
        + "the table has "
        + describe(current)
        + ", the record has "
        + describe(incoming);
  }

  private static String explainStruct(Schema current, Schema incoming, String path) {
    for (Field field : current.fields()) {
      Field other = incoming.field(field.name());
      String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
      if (other == null) {
        if (!field.schema().isOptional()) {
          return at(fieldPath) + "required in the table but missing from the record";
        }
        continue;
      }
      String inner = explain(field.schema(), other.schema(), fieldPath);
      if (inner != null) {
        return inner;
      }
    }
    for (Field other : incoming.fields()) {
      if (current.field(other.name()) == null && !other.schema().isOptional()) {
        String fieldPath = path.isEmpty() ? other.name() : path + "." + other.name();
        return at(fieldPath) + "new and required; only optional fields can be added to a table";
      }
    }
    return null;
  }

  private static String describe(Schema schema) {
    String name = Schemas.typeName(schema);
    if ("decimal".equals(name) && schema.parameters() != null) {
      return "decimal" + schema.parameters();
    }
    return name;
  }

  private static String at(String path) {
    return "field " + (path.isEmpty() ? "value" : path) + ": ";
  }
}
