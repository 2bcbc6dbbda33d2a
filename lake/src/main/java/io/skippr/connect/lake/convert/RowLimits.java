package io.skippr.connect.lake.convert;

import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * How large a row may be in shape, so that hostile records cannot exhaust the stack or the heap.
 *
 * <ul>
 *   <li>{@value #MAX} levels of structs, lists and maps: every step of the sink that walks a row or
 *       its schema recurses (inference, Parquet schemas, writers, the stored table schema, whose
 *       JSON a reader refuses past 1000 levels), so a deeper record is rejected before any of them
 *       sees it. The checks themselves stop one level past the limit.
 *   <li>{@value #MAX_COLUMNS} columns (leaf fields) per table: a Parquet writer holds buffers of
 *       some 30 KiB per column whatever the rows, so a schemaless table whose records keep bringing
 *       new keys would otherwise grow until a file cannot be written.
 * </ul>
 */
final class RowLimits {
  /** The deepest nesting a row may have. */
  static final int MAX = 100;

  /** The most columns a table may have. */
  static final int MAX_COLUMNS = 4096;

  private RowLimits() {}

  /**
   * Checks the columns of a table's schema.
   *
   * @throws DataException when it has more than {@link #MAX_COLUMNS}
   */
  static void checkColumns(Schema schema) {
    int columns = columns(schema);
    if (columns > MAX_COLUMNS) {
      throw new DataException(
          "the record would take its table to "
              + columns
              + " columns, more than the "
              + MAX_COLUMNS
              + " a table may have");
    }
  }

  /** The leaf columns of a schema as Parquet stores it. */
  static int columns(Schema schema) {
    switch (schema.type()) {
      case STRUCT:
        int columns = 0;
        for (Field field : schema.fields()) {
          columns += columns(field.schema());
        }
        return columns;
      case ARRAY:
        return columns(schema.valueSchema());
      case MAP:
        return columns(schema.keySchema()) + columns(schema.valueSchema());
      default:
        return 1;
    }
  }

  /**
   * Checks a schemaless value.
   *
   * @throws DataException when it nests deeper than {@link #MAX}
   */
  static void checkValue(Object value) {
    if (depth(value, 0) > MAX) {
      throw tooDeep();
    }
  }

  /**
   * Checks a schema.
   *
   * @throws DataException when it nests deeper than {@link #MAX}
   */
  static void checkSchema(Schema schema) {
    if (depth(schema, 0) > MAX) {
      throw tooDeep();
    }
  }

  private static DataException tooDeep() {
    return new DataException(
        "the value nests more than "
            + MAX
            + " levels of objects and lists; the lake stores "
            + MAX);
  }

  private static int depth(Object value, int level) {
    if (level > MAX) {
      return level;
    }
    int deepest = level;
    if (value instanceof Map<?, ?> map) {
      for (Object item : map.values()) {
        deepest = Math.max(deepest, depth(item, level + 1));
      }
    } else if (value instanceof Collection<?> items) {
      for (Object item : items) {
        deepest = Math.max(deepest, depth(item, level + 1));
      }
    } else if (value instanceof Object[] items) {
      for (Object item : items) {
        deepest = Math.max(deepest, depth(item, level + 1));
      }
    }
    return deepest;
  }

  private static int depth(Schema schema, int level) {
    if (level > MAX) {
      return level;
    }
    switch (schema.type()) {
      case STRUCT:
        int deepest = level;
        for (Field field : schema.fields()) {
          deepest = Math.max(deepest, depth(field.schema(), level + 1));
        }
        return deepest;
      case ARRAY:
        return depth(schema.valueSchema(), level + 1);
      case MAP:
        return Math.max(
            depth(schema.keySchema(), level + 1), depth(schema.valueSchema(), level + 1));
      default:
        return level;
    }
  }
}
