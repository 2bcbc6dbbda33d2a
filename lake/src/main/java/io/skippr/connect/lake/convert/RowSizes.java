package io.skippr.connect.lake.convert;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Estimates the heap a row keeps alive, for the task's memory budget: object headers, references
 * and payloads on a 64-bit JVM with compressed references. A walk over the values without
 * allocating; strings count one byte per character (the compact form most text takes).
 */
final class RowSizes {
  static final int HEADER = 16;
  static final int REFERENCE = 4;
  static final int BOXED = 16;
  static final int DATE = 24;
  static final int STRING = 24 + HEADER;
  static final int LIST = 24 + HEADER;
  static final int MAP_ENTRY = 32 + REFERENCE;
  static final int MAP = 48 + HEADER;

  private RowSizes() {}

  static long of(Object value) {
    if (value == null || value instanceof Boolean) {
      return 0; // shared instances
    } else if (value instanceof String text) {
      return align(STRING + text.length());
    } else if (value instanceof Struct struct) {
      return struct(struct);
    } else if (value instanceof Number number) {
      return number instanceof BigDecimal decimal ? decimal(decimal) : BOXED + 8;
    } else if (value instanceof java.util.Date) {
      return DATE;
    } else if (value instanceof byte[] bytes) {
      return align(HEADER + bytes.length);
    } else if (value instanceof ByteBuffer buffer) {
      return 48 + align(HEADER + buffer.capacity());
    } else if (value instanceof List<?> list) {
      return list(list);
    } else if (value instanceof Map<?, ?> map) {
      return map(map);
    }
    return BOXED;
  }

  /**
   * Sizes rows whose schemas recur, with the same result as {@link #of}: per schema it adds up once
   * what required fixed-size fields (numbers, booleans, dates) take, so a row costs a walk over its
   * strings, decimals, bytes and containers only. One instance per converter; not thread-safe.
   */
  static final class Planned {
    private static final int MAX_PLANS = 1024;
    private final Map<Schema, Plan> plans = new IdentityHashMap<>();
    private Schema lastSchema;
    private Plan lastPlan;

    long of(Struct struct) {
      return of(struct, plan(struct.schema()));
    }

    private long of(Struct struct, Plan plan) {
      long size = plan.fixedBytes;
      Field[] variable = plan.variable;
      for (int i = 0; i < variable.length; i++) {
        Object value = struct.get(variable[i]);
        if (value instanceof Struct nested) {
          Plan inner = plan.nested[i];
          // A struct's schema is its field's (Connect checks), though maybe an equal copy.
          size += inner != null && nested.schema() == inner.schema ? of(nested, inner) : of(nested);
        } else {
          size += RowSizes.of(value);
        }
      }
      return size;
    }

    private Plan plan(Schema schema) {
      if (schema == lastSchema) {
        return lastPlan;
      }
      Plan plan = plans.get(schema);
      if (plan == null) {
        if (plans.size() >= MAX_PLANS) {
          plans.clear();
        }
        plan = Plan.of(schema);
        plans.put(schema, plan);
      }
      lastSchema = schema;
      lastPlan = plan;
      return plan;
    }
  }

  /**
   * What a struct of one schema takes before its variable-size fields, and the plans of the struct
   * fields among those (so a nested struct costs no lookup).
   */
  private record Plan(Schema schema, long fixedBytes, Field[] variable, Plan[] nested) {
    static Plan of(Schema schema) {
      List<Field> fields = schema.fields();
      long fixed = HEADER + REFERENCE * 2L + align(HEADER + (long) REFERENCE * fields.size());
      List<Field> variable = new ArrayList<>();
      List<Plan> nested = new ArrayList<>();
      for (Field field : fields) {
        long size = fixedSize(field.schema());
        if (size < 0) {
          variable.add(field);
          boolean struct = field.schema().type() == Schema.Type.STRUCT;
          nested.add(struct ? of(field.schema()) : null);
        } else {
          fixed += size;
        }
      }
      return new Plan(schema, fixed, variable.toArray(new Field[0]), nested.toArray(new Plan[0]));
    }

    /** What {@link RowSizes#of} gives every value of a required fixed-size field; -1 if none. */
    private static long fixedSize(Schema schema) {
      if (schema.isOptional()) {
        return -1; // null takes nothing
      }
      String logical = schema.name();
      if (Timestamp.LOGICAL_NAME.equals(logical)
          || Date.LOGICAL_NAME.equals(logical)
          || Time.LOGICAL_NAME.equals(logical)) {
        return DATE;
      }
      if (logical != null) {
        return -1; // decimals and other logical types vary
      }
      switch (schema.type()) {
        case BOOLEAN:
          return 0;
        case INT8:
        case INT16:
        case INT32:
        case INT64:
        case FLOAT32:
        case FLOAT64:
          return BOXED + 8;
        default:
          return -1;
      }
    }
  }

  private static long struct(Struct struct) {
    var fields = struct.schema().fields();
    long size = HEADER + REFERENCE * 2L + align(HEADER + (long) REFERENCE * fields.size());
    for (int i = 0, n = fields.size(); i < n; i++) {
      size += of(struct.get(fields.get(i)));
    }
    return size;
  }

  private static long list(List<?> list) {
    long size = LIST + align(HEADER + (long) REFERENCE * list.size());
    for (int i = 0, n = list.size(); i < n; i++) {
      size += of(list.get(i));
    }
    return size;
  }

  private static long map(Map<?, ?> map) {
    long size = MAP + align(HEADER + (long) REFERENCE * 2 * map.size());
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      size += MAP_ENTRY + of(entry.getKey()) + of(entry.getValue());
    }
    return size;
  }

  private static long decimal(BigDecimal decimal) {
    // Up to 18 digits a BigDecimal keeps its unscaled value in a long; beyond, in a BigInteger.
    int precision = decimal.precision();
    return precision <= 18 ? 40 : 40 + 40 + align(HEADER + (precision / 9 + 1) * 4L);
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }
}
