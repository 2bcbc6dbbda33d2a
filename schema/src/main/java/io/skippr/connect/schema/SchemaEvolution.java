package io.skippr.connect.schema;

import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The strict evolution rule for a fixed contract and for the lake sink: data written under the
 * current schema stays readable under the evolved one, with no value ever reinterpreted.
 *
 * <p>Allowed: new optional struct fields at any depth (appended after the existing ones), and
 * widening of plain numbers: int8/int16/int32 → int64 → double, float → double. Everything else
 * (another type, another logical type or its parameters, optional vs required, a required field
 * missing from the incoming schema) is refused.
 *
 * <p>Two inference placeholders are honoured: a field only ever null (see {@link
 * SchemaMarkers#isNullOnly}) in the incoming schema fits any optional field, and one in the current
 * schema takes the first concrete optional type that arrives, since it has never held a value.
 * Struct names, docs, defaults and other unnamed parameters are the current schema's and are not
 * compared.
 */
public final class SchemaEvolution {
  private SchemaEvolution() {}

  /**
   * Evolves {@code current} to accept {@code incoming}.
   *
   * @return the evolved schema ({@code current} itself, the same instance, when nothing had to
   *     change), or empty when incoming is not a compatible evolution of current
   */
  public static Optional<Schema> evolve(Schema current, Schema incoming) {
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(incoming, "incoming");
    return Optional.ofNullable(evolveNode(current, incoming));
  }

  /** True when {@code incoming} needs no change of {@code current}. */
  public static boolean isCompatibleWithoutChange(Schema current, Schema incoming) {
    return evolve(current, incoming).map(s -> s == current).orElse(false);
  }

  private static Schema evolveNode(Schema current, Schema incoming) {
    if (current == incoming) {
      return current;
    }
    Schema placeholder = resolvePlaceholder(current, incoming);
    if (placeholder != null) {
      return placeholder;
    }
    if (current.isOptional() != incoming.isOptional()) {
      return null;
    }
    if (current.type() != incoming.type()) {
      return widen(current, incoming);
    }
    if (current.type() != Schema.Type.STRUCT && !sameNameAndParameters(current, incoming)) {
      return null;
    }
    return switch (current.type()) {
      case STRUCT -> evolveStruct(current, incoming);
      case ARRAY -> evolveArray(current, incoming);
      case MAP -> evolveMap(current, incoming);
      default -> current;
    };
  }

  /** The result when either side is a null-only placeholder that fits; null otherwise. */
  private static Schema resolvePlaceholder(Schema current, Schema incoming) {
    if (SchemaMarkers.isNullOnly(incoming) && current.isOptional()) {
      return current;
    }
    if (SchemaMarkers.isNullOnly(current) && incoming.isOptional()) {
      return incoming;
    }
    return null;
  }

  private static Schema widen(Schema current, Schema incoming) {
    if (!Schemas.isPlain(current) || !Schemas.isPlain(incoming)) {
      return null;
    }
    Schema.Type wider = Schemas.widerNumeric(current.type(), incoming.type());
    if (wider == null || wider == Schema.Type.FLOAT32) {
      return null;
    }
    if (wider == current.type()) {
      return current;
    }
    SchemaBuilder builder = SchemaBuilder.type(wider).doc(current.doc());
    return current.isOptional() ? builder.optional().build() : builder.build();
  }

  private static boolean sameNameAndParameters(Schema current, Schema incoming) {
    if (!Objects.equals(current.name(), incoming.name())) {
      return false;
    }
    return current.name() == null
        || SchemaMarkers.typeParameters(current).equals(SchemaMarkers.typeParameters(incoming));
  }

  private static Schema evolveStruct(Schema current, Schema incoming) {
    boolean changed = false;
    SchemaBuilder builder = structHeader(current);
    for (Field field : current.fields()) {
      Field other = incoming.field(field.name());
      Schema evolved;
      if (other == null) {
        if (!field.schema().isOptional()) {
          return null;
        }
        evolved = field.schema();
      } else {
        evolved = evolveNode(field.schema(), other.schema());
        if (evolved == null) {
          return null;
        }
      }
      changed |= evolved != field.schema();
      builder.field(field.name(), evolved);
    }
    for (Field other : incoming.fields()) {
      if (current.field(other.name()) == null) {
        if (!other.schema().isOptional()) {
          return null;
        }
        builder.field(other.name(), other.schema());
        changed = true;
      }
    }
    return changed ? builder.build() : current;
  }

  private static SchemaBuilder structHeader(Schema current) {
    SchemaBuilder builder =
        SchemaBuilder.struct().name(current.name()).version(current.version()).doc(current.doc());
    if (current.parameters() != null && !current.parameters().isEmpty()) {
      builder.parameters(current.parameters());
    }
    return current.isOptional() ? builder.optional() : builder;
  }

  private static Schema evolveArray(Schema current, Schema incoming) {
    Schema element = evolveNode(current.valueSchema(), incoming.valueSchema());
    if (element == null) {
      return null;
    }
    if (element == current.valueSchema()) {
      return current;
    }
    SchemaBuilder builder = SchemaBuilder.array(element).doc(current.doc());
    return current.isOptional() ? builder.optional().build() : builder.build();
  }

  private static Schema evolveMap(Schema current, Schema incoming) {
    Schema key = evolveNode(current.keySchema(), incoming.keySchema());
    Schema value = evolveNode(current.valueSchema(), incoming.valueSchema());
    if (key == null || value == null) {
      return null;
    }
    if (key == current.keySchema() && value == current.valueSchema()) {
      return current;
    }
    SchemaBuilder builder = SchemaBuilder.map(key, value).doc(current.doc());
    return current.isOptional() ? builder.optional().build() : builder.build();
  }
}
