package io.skippr.connect.schema;

import io.skippr.connect.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * The steady-state path of schemaless values (inside {@link InferredSchema}): turns a map that
 * already fits the inferred struct schema into a struct of it in one walk, where the general path
 * first fits the value ({@link SchemalessFit}) and then conforms it ({@link ValueConformer}). Built
 * once per inferred schema; not thread-safe.
 *
 * <p>It converts the values schemaless JSON mostly holds (strings, booleans, integers and doubles,
 * epoch and ISO-8601 timestamps, nested objects, arrays of those) itself and hands other fields to
 * the general fit and conform. Whenever a value would evolve the schema or be rejected it answers
 * null, and the caller takes the general path, which evolves the schema or rejects the record with
 * its reason: the fast path never decides differently, it only skips work for values that fit as
 * they are.
 */
public final class SchemalessPlan {
  private static final Object NO_FIT = new Object();

  private enum Kind {
    STRING,
    BOOLEAN,
    INT32,
    INT64,
    FLOAT64,
    TIMESTAMP,
    STRUCT,
    ARRAY,
    NULL_ONLY,
    OTHER
  }

  /**
   * A field (stored through an unnamed copy, since Connect formats a location per named put) or an
   * array's elements; {@code nested} is the plan of a struct, {@code element} the slot of an
   * array's elements.
   */
  private record Slot(String name, Field field, Kind kind, SchemalessPlan nested, Slot element) {
    static Slot of(String name, int index, Schema schema) {
      Kind kind = SchemalessPlan.kind(schema);
      SchemalessPlan nested = kind == Kind.STRUCT ? SchemalessPlan.of(schema) : null;
      Slot element = kind == Kind.ARRAY ? elements(name, schema.valueSchema()) : null;
      if ((kind == Kind.STRUCT && nested == null) || (kind == Kind.ARRAY && element == null)) {
        kind = Kind.OTHER;
      }
      return new Slot(name, new Field(null, index, schema), kind, nested, element);
    }

    /** Null when a null element is not simply null. */
    private static Slot elements(String name, Schema schema) {
      return schema.isOptional() && schema.defaultValue() == null ? of(name, 0, schema) : null;
    }
  }

  private final Schema schema;
  private final Map<String, Slot> byName = new HashMap<>();

  /** The key instance met at each position of the last maps, and its slot: most maps repeat. */
  private final Object[] keysSeen;

  private final Slot[] slotsSeen;

  private SchemalessPlan(Schema schema) {
    this.schema = schema;
    for (Field field : schema.fields()) {
      byName.put(field.name(), Slot.of(field.name(), field.index(), field.schema()));
    }
    this.keysSeen = new Object[schema.fields().size()];
    this.slotsSeen = new Slot[keysSeen.length];
  }

  /**
   * The plan for a struct schema, or null when its values always need the general path: a field
   * that is required or has a default (a missing key then is not simply null).
   */
  public static SchemalessPlan of(Schema schema) {
    if (schema.type() != Schema.Type.STRUCT) {
      return null;
    }
    for (Field field : schema.fields()) {
      if (!field.schema().isOptional() || field.schema().defaultValue() != null) {
        return null;
      }
    }
    return new SchemalessPlan(schema);
  }

  public Schema schema() {
    return schema;
  }

  /**
   * The value as a struct of this plan's schema, equal to what the general path gives, or null when
   * the value needs the general path (it evolves the schema, does not fit, or has non-string keys).
   */
  public Struct conform(Map<?, ?> map) {
    Struct struct = new Struct(schema);
    return conformInto(struct, map) ? struct : null;
  }

  /**
   * Like {@link #conform}, into a new struct whose first fields are this schema's (a row with added
   * columns); false when the value needs the general path.
   */
  public boolean conformInto(Struct target, Map<?, ?> map) {
    try {
      return fill(target, map);
    } catch (DataException e) {
      return false; // the general path rejects it, with the field's path
    }
  }

  private boolean fill(Struct struct, Map<?, ?> map) {
    if (map instanceof JsonObject object) {
      return fill(struct, object);
    }
    int position = 0;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      Slot slot = slotAt(position++, entry.getKey());
      if (slot == null || !put(struct, slot, entry.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** The streaming converter's object, walked by position: no entry or iterator per field. */
  private boolean fill(Struct struct, JsonObject object) {
    for (int i = 0, n = object.size(); i < n; i++) {
      Slot slot = slotAt(i, object.keyAt(i));
      if (slot == null || !put(struct, slot, object.valueAt(i))) {
        return false;
      }
    }
    return true;
  }

  private Slot slotAt(int position, Object key) {
    if (position >= keysSeen.length) {
      return null; // more keys than fields: one of them is new
    }
    if (keysSeen[position] == key) {
      return slotsSeen[position];
    }
    Slot slot = key instanceof String name ? byName.get(name) : null;
    if (slot != null) {
      keysSeen[position] = key;
      slotsSeen[position] = slot;
    }
    return slot;
  }

  private static boolean put(Struct struct, Slot slot, Object value) {
    if (value == null) {
      return true; // every field is optional without a default: it stays null
    }
    if (slot.kind == Kind.STRUCT && value instanceof Map<?, ?> map) {
      Struct nested = new Struct(slot.field.schema());
      // Put while empty (all its fields optional): Connect then checks nulls only, not each value
      // a second time.
      struct.put(slot.field, nested);
      return slot.nested.fill(nested, map);
    }
    Object converted = convert(slot, value);
    if (converted == NO_FIT) {
      return false;
    }
    struct.put(slot.field, converted);
    return true;
  }

  /** The value as the general path conforms it, or {@link #NO_FIT}. */
  private static Object convert(Slot slot, Object value) {
    switch (slot.kind) {
      case STRING:
        if (value instanceof String) {
          return value;
        }
        break;
      case BOOLEAN:
        if (value instanceof Boolean) {
          return value;
        }
        break;
      case INT32:
        if (value instanceof Integer) {
          return value;
        } else if (value instanceof Long l && l == l.intValue()) {
          return l.intValue();
        }
        break;
      case INT64:
        if (value instanceof Long) {
          return value;
        } else if (value instanceof Integer i) {
          return i.longValue();
        }
        break;
      case FLOAT64:
        if (value instanceof Double) {
          return value;
        } else if (value instanceof Number number) {
          return number.doubleValue();
        }
        break;
      case TIMESTAMP:
        if (value instanceof Long || value instanceof Integer) {
          return new java.util.Date(TemporalValues.epochToMillis(((Number) value).doubleValue()));
        } else if (value instanceof String text) {
          Long millis = TemporalValues.parseIsoDateTimeMillis(text);
          if (millis != null) {
            return new java.util.Date(millis); // else a date, or a mismatch: the general path
          }
        }
        break;
      case ARRAY:
        if (value instanceof List<?> list) {
          return list(slot.element, list);
        }
        break;
      case NULL_ONLY:
        return NO_FIT; // takes the value's type: the schema evolves
      default:
        break;
    }
    return general(slot, value);
  }

  private static Object list(Slot element, List<?> list) {
    List<Object> out = new ArrayList<>(list.size());
    for (int i = 0, n = list.size(); i < n; i++) {
      Object item = list.get(i);
      Object converted = item == null ? null : element(element, item);
      if (converted == NO_FIT) {
        return NO_FIT;
      }
      out.add(converted);
    }
    return out;
  }

  private static Object element(Slot element, Object item) {
    if (element.kind == Kind.STRUCT && item instanceof Map<?, ?> map) {
      Struct struct = new Struct(element.field.schema());
      return element.nested.fill(struct, map) ? struct : NO_FIT;
    }
    return convert(element, item);
  }

  private static Object general(Slot slot, Object value) {
    Schema schema = slot.field.schema();
    if (SchemalessFit.fit(schema, value, slot.name, slot.name) != schema) {
      return NO_FIT;
    }
    return ValueConformer.conform(value, schema);
  }

  private static Kind kind(Schema schema) {
    if (SchemaMarkers.isNullOnly(schema)) {
      return Kind.NULL_ONLY;
    } else if (Timestamp.LOGICAL_NAME.equals(schema.name())) {
      return Kind.TIMESTAMP;
    } else if (schema.name() != null) {
      return Kind.OTHER;
    }
    return switch (schema.type()) {
      case STRING -> Kind.STRING;
      case BOOLEAN -> Kind.BOOLEAN;
      case INT32 -> Kind.INT32;
      case INT64 -> Kind.INT64;
      case FLOAT64 -> Kind.FLOAT64;
      case STRUCT -> Kind.STRUCT;
      case ARRAY -> Kind.ARRAY;
      default -> Kind.OTHER;
    };
  }
}
