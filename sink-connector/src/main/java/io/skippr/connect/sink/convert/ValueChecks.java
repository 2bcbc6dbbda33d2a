package io.skippr.connect.sink.convert;

import java.math.BigDecimal;
import java.math.RoundingMode;
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
 * contain such types, so most rows skip it.
 */
final class ValueChecks {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private ValueChecks() {}

  /** True when values of the schema need {@link #check}. */
  static boolean needed(Schema schema) {
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

  /**
   * @throws RecordRejectedException naming the field when a value does not fit its column
   */
  static void check(Object value, Schema schema, String path) {
    if (value == null) {
      return;
    }
    if (Decimal.LOGICAL_NAME.equals(schema.name())) {
      checkDecimal((BigDecimal) value, schema, path);
    } else if (Time.LOGICAL_NAME.equals(schema.name())) {
      long millis = ((java.util.Date) value).getTime();
      if (millis < 0 || millis >= MILLIS_PER_DAY) {
        throw SchemalessFit.reject(path, "time " + millis + " ms is outside one day");
      }
    } else if (schema.type() == Schema.Type.STRUCT) {
      Struct struct = (Struct) value;
      for (Field field : struct.schema().fields()) {
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

  private static void checkDecimal(BigDecimal value, Schema schema, String path) {
    int precision = ParquetSchemas.decimalPrecision(schema);
    int scale = ParquetSchemas.decimalScale(schema);
    BigDecimal scaled;
    try {
      scaled = value.scale() == scale ? value : value.setScale(scale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw SchemalessFit.reject(
          path, value + " has more decimal places than the column's scale " + scale);
    }
    if (scaled.precision() > precision) {
      throw SchemalessFit.reject(
          path, value + " has more than the column's " + precision + " digits of precision");
    }
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
