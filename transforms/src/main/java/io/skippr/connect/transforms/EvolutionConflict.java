package io.skippr.connect.transforms;

import io.skippr.connect.schema.SchemaEvolution;
import io.skippr.connect.schema.SchemaMarkers;
import io.skippr.connect.schema.Schemas;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Explains why {@link SchemaEvolution#evolve} refused an incoming schema: the path of the first
 * field that cannot evolve and what it holds versus what it would need to hold.
 */
final class EvolutionConflict {
  private EvolutionConflict() {}

  /**
   * {@code path: reason} for a refused evolution, e.g. {@code items[].price: expected double, got
   * string}.
   */
  static String describe(Schema current, Schema incoming) {
    String found = locate(current, incoming, "");
    return found != null ? found : "(root): expected " + type(current) + ", got " + type(incoming);
  }

  private static String locate(Schema current, Schema incoming, String path) {
    if (SchemaEvolution.evolve(current, incoming).isPresent()) {
      return null;
    }
    if (current.type() == incoming.type() && current.isOptional() == incoming.isOptional()) {
      String inner =
          switch (current.type()) {
            case STRUCT -> locateInStruct(current, incoming, path);
            case ARRAY -> locate(current.valueSchema(), incoming.valueSchema(), path + "[]");
            case MAP -> locateInMap(current, incoming, path);
            default -> null;
          };
      if (inner != null) {
        return inner;
      }
    }
    return label(path) + ": expected " + type(current) + ", got " + type(incoming);
  }

  private static String locateInStruct(Schema current, Schema incoming, String path) {
    for (Field field : current.fields()) {
      String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
      Field other = incoming.field(field.name());
      if (other == null) {
        if (!field.schema().isOptional()) {
          return fieldPath + ": required field is missing";
        }
        continue;
      }
      String found = locate(field.schema(), other.schema(), fieldPath);
      if (found != null) {
        return found;
      }
    }
    for (Field other : incoming.fields()) {
      if (current.field(other.name()) == null && !other.schema().isOptional()) {
        String fieldPath = path.isEmpty() ? other.name() : path + "." + other.name();
        return fieldPath + ": a new field must be optional";
      }
    }
    return null;
  }

  private static String locateInMap(Schema current, Schema incoming, String path) {
    String key = locate(current.keySchema(), incoming.keySchema(), path + "{key}");
    return key != null ? key : locate(current.valueSchema(), incoming.valueSchema(), path + "{}");
  }

  private static String type(Schema schema) {
    String name = Schemas.typeName(schema);
    if (!SchemaMarkers.conflictTypes(schema).isEmpty()) {
      name = "mixed " + String.join("/", SchemaMarkers.conflictTypes(schema)) + " values";
    } else if (schema.type() == Schema.Type.ARRAY) {
      name = "array of " + type(schema.valueSchema());
    }
    return (schema.isOptional() ? "" : "required ") + name;
  }

  private static String label(String path) {
    return path.isEmpty() ? "(root)" : path;
  }
}
