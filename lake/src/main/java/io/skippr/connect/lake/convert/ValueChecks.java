package io.skippr.connect.lake.convert;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;

/**
 * Checks the values Connect accepts but a Parquet column cannot hold: decimals with more digits
 * than the column's precision or a finer scale, times outside one day. Run only for schemas that
 * contain such types, so most rows skip it. One instance per row shape: it remembers, per schema
 * instance, which struct fields need a look and each decimal's precision and scale, so a row costs
 * a walk over those fields only.
 */
final class ValueChecks {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final int MAX_SCHEMAS = 1024;

  private final Schema rowSchema;
  private final Map<Schema, Field[]> checkedFields = new IdentityHashMap<>();
  private final Map<Schema, int[]> decimals = new IdentityHashMap<>();

  private ValueChecks(Schema rowSchema) {
    this.rowSchema = rowSchema;
  }

  /** The checks rows of this schema need, or null when they need none. */
  static ValueChecks forRow(Schema rowSchema) {
    return needed(rowSchema) ? new ValueChecks(rowSchema) : null;
  }

  /**
   * @throws RecordRejectedException naming the field when a value does not fit its column
   */
  void check(Struct row) {
    check(row, rowSchema, "");
  }

  /** True when values of the schema need {@link #check}. */
  private static boolean needed(Schema schema) {
    if (Decimal.LOGICAL_NAME.equals(schema.name()) || Time.LOGICAL_NAME.equals(schema.name())) {
      return true;
    }
    switch (schema.type()) {
      case STRUCT:
        for (Field field : schema.fields()) {
          if (needed(field.schema())) {
            return true;
          }
        }
        return false;
      case ARRAY:
        return needed(schema.valueSchema());
      case MAP:
        return needed(schema.keySchema()) || needed(schema.valueSchema());
      default:
        return false;
    }
  }

  private void check(Object value, Schema schema, String path) {
    if (value == null) {
      return;
    }
    if (Decimal.LOGICAL_NAME.equals(schema.name())) {
      checkDecimal((BigDecimal) value, schema, path);
    } else if (Time.LOGICAL_NAME.equals(schema.name())) {
      long millis = ((java.util.Date) value).getTime();
      if (millis < 0 || millis >= MILLIS_PER_DAY) {
        throw reject(path, "time " + millis + " ms is outside one day");
      }
    } else if (schema.type() == Schema.Type.STRUCT) {
      Struct struct = (Struct) value;
      for (Field field : checkedFields(struct.schema())) {
        check(struct.get(field), field.schema(), child(path, field.name()));
      }
    } else if (schema.type() == Schema.Type.ARRAY) {
      List<?> list = (List<?>) value;
      for (int i = 0; i < list.size(); i++) {
        check(list.get(i), schema.valueSchema(), path + "[" + i + "]");
      }
    } else if (schema.type() == Schema.Type.MAP) {
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        check(entry.getKey(), schema.keySchema(), path + "{key}");
        check(entry.getValue(), schema.valueSchema(), path + "[" + entry.getKey() + "]");
      }
    }
  }

  /** The fields of a struct schema whose values may need a check. */
  private Field[] checkedFields(Schema struct) {
    Field[] fields = checkedFields.get(struct);
    if (fields == null) {
      fields = struct.fields().stream().filter(f -> needed(f.schema())).toArray(Field[]::new);
      remember(checkedFields, struct, fields);
    }
    return fields;
  }

  private void checkDecimal(BigDecimal value, Schema schema, String path) {
    int[] precisionAndScale = decimals.get(schema);
    if (precisionAndScale == null) {
      precisionAndScale =
          new int[] {ParquetSchemas.decimalPrecision(schema), ParquetSchemas.decimalScale(schema)};
      remember(decimals, schema, precisionAndScale);
    }
    int precision = precisionAndScale[0];
    int scale = precisionAndScale[1];
    BigDecimal scaled;
    try {
      scaled = value.scale() == scale ? value : value.setScale(scale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw reject(path, value + " has more decimal places than the column's scale " + scale);
    }
    if (scaled.precision() > precision) {
      throw reject(
          path, value + " has more than the column's " + precision + " digits of precision");
    }
  }

  /** Schemas of a shape are few; the bound only guards against values built with fresh ones. */
  private static <V> void remember(Map<Schema, V> cache, Schema schema, V value) {
    if (cache.size() >= MAX_SCHEMAS) {
      cache.clear();
    }
    cache.put(schema, value);
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static RecordRejectedException reject(String path, String reason) {
    return new RecordRejectedException(
        "field " + (path.isEmpty() ? "value" : path) + ": " + reason);
  }
}
