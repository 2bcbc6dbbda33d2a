package io.skippr.connect.lake.format;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Which columns of one file are written with a dictionary, decided from the file's own rows before
 * the first is written. parquet-java otherwise dictionary-encodes every column and falls back to
 * plain encoding once a column's dictionary outgrows its page or fails to compress: for
 * high-cardinality columns (ids, messages, timestamps) that is a hash insert per value spent for
 * nothing. The decision reads only the rows, so the same rows always give the same file.
 *
 * <p>A column keeps its dictionary when a sample of rows spread over the file shows that its values
 * repeat (an estimated average of at least {@link #MIN_REPEATS} rows per distinct value) and that
 * its dictionary would fit {@link #PAGE_BYTES}. The number of distinct values is estimated from the
 * repeats within the sample: the {@code D} whose expected number of distinct values in {@code m}
 * draws is the {@code d} the sample found (exact when values are spread evenly). Columns inside
 * lists and maps, booleans (never dictionary-encoded) and paths with a dot in a name keep
 * parquet-java's default.
 */
final class DictionaryPlan {
  /** The seed of the sample's places: fixed, so the same rows always give the same decisions. */
  private static final long SEED = 26;

  /** Rows sampled per file at most. */
  static final int SAMPLE_ROWS = 1024;

  /** The dictionary page size: a dictionary estimated beyond it is not started. */
  static final int PAGE_BYTES = 1 << 20;

  /** A column keeps a dictionary when each distinct value is estimated in this many rows. */
  static final int MIN_REPEATS = 2;

  private DictionaryPlan() {}

  /**
   * The dictionary decision of each primitive column the plan decides, by dotted column path.
   *
   * @param fileSchema the file's row schema
   * @param rows the file's rows, whose schemas widen to it
   */
  static Map<String, Boolean> decide(Schema fileSchema, List<Struct> rows) {
    List<Column> columns = new ArrayList<>();
    collect(fileSchema, List.of(), columns);
    Map<String, Boolean> decisions = new LinkedHashMap<>();
    if (columns.isEmpty() || rows.isEmpty()) {
      return decisions;
    }
    int n = rows.size();
    int m = Math.min(n, SAMPLE_ROWS);
    // One row from each of m equal slices, at a place within the slice drawn from a fixed seed:
    // spread like an even stride, but blind to values that repeat with a period (a stride meets
    // one phase of them only).
    SplittableRandom places = new SplittableRandom(SEED);
    for (int s = 0; s < m; s++) {
      int from = (int) ((long) s * n / m);
      int to = (int) ((long) (s + 1) * n / m);
      Struct row = rows.get(from + places.nextInt(to - from));
      for (Column column : columns) {
        column.sample(row);
      }
    }
    for (Column column : columns) {
      decisions.put(String.join(".", column.path), column.dictionary(n, m));
    }
    return decisions;
  }

  private static void collect(Schema struct, List<String> path, List<Column> columns) {
    for (Field field : struct.fields()) {
      if (field.name().indexOf('.') >= 0) {
        continue; // parquet-java takes column paths as dotted strings
      }
      List<String> child = new ArrayList<>(path);
      child.add(field.name());
      Schema schema = field.schema();
      switch (schema.type()) {
        case STRUCT -> collect(schema, child, columns);
        case ARRAY, MAP, BOOLEAN -> {
          // repeated values and booleans: parquet-java's default
        }
        default -> columns.add(new Column(child, bytesOf(schema)));
      }
    }
  }

  /** The plain size of one value of a fixed-size type; 0 for variable-length values. */
  private static int bytesOf(Schema schema) {
    if (Decimal.LOGICAL_NAME.equals(schema.name())) {
      return 16;
    }
    return switch (schema.type()) {
      case INT8, INT16, INT32, FLOAT32 -> 4;
      case INT64, FLOAT64 -> 8;
      default -> 0;
    };
  }

  /**
   * The number of distinct values D of a column in which {@code sampled} draws found {@code
   * distinct}: the D whose expected distinct count D·(1 − (1 − 1/D)^m) is {@code distinct}.
   * Infinite when no value repeated.
   */
  static double estimateDistinct(int distinct, int sampled) {
    if (distinct >= sampled) {
      return Double.POSITIVE_INFINITY;
    }
    double low = distinct;
    double high = Math.max(2.0 * distinct, 1.0);
    while (expectedDistinct(high, sampled) < distinct) {
      high *= 2;
    }
    for (int i = 0; i < 60; i++) {
      double mid = (low + high) / 2;
      if (expectedDistinct(mid, sampled) < distinct) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return high;
  }

  private static double expectedDistinct(double values, int draws) {
    return values * -Math.expm1(draws * Math.log1p(-1.0 / values));
  }

  /** One primitive column: the values seen in the sample. */
  private static final class Column {
    final List<String> path;
    final int fixedBytes;
    final Map<Object, Integer> seen = new HashMap<>();
    int sampled;
    long variableBytes;

    Column(List<String> path, int fixedBytes) {
      this.path = path;
      this.fixedBytes = fixedBytes;
    }

    void sample(Struct row) {
      Object value = row;
      for (String name : path) {
        Struct struct = (Struct) value;
        Field field = struct.schema().field(name);
        value = field == null ? null : struct.get(field);
        if (value == null) {
          return;
        }
      }
      sampled++;
      Object key = key(value);
      if (seen.merge(key, 1, Integer::sum) == 1 && fixedBytes == 0) {
        variableBytes += 4 + length(value);
      }
    }

    /** Whether the column keeps its dictionary in a file of {@code rows} rows. */
    boolean dictionary(int rows, int sampledRows) {
      int distinct = seen.size();
      if (sampled == 0) {
        return true; // all null: nothing to encode either way
      }
      // The sample's own non-null share scales it to the file.
      double nonNull = rows * (sampled / (double) sampledRows);
      double estimate =
          sampledRows == rows ? distinct : Math.min(nonNull, estimateDistinct(distinct, sampled));
      if (estimate * MIN_REPEATS > nonNull) {
        return false;
      }
      double bytesPerValue = fixedBytes > 0 ? fixedBytes : variableBytes / (double) distinct;
      return estimate * bytesPerValue <= PAGE_BYTES;
    }

    private static Object key(Object value) {
      if (value instanceof byte[] bytes) {
        return ByteBuffer.wrap(bytes);
      } else if (value instanceof BigDecimal decimal) {
        return decimal.unscaledValue();
      }
      return value;
    }

    private static int length(Object value) {
      if (value instanceof String text) {
        return text.length();
      } else if (value instanceof byte[] bytes) {
        return bytes.length;
      } else if (value instanceof ByteBuffer buffer) {
        return buffer.remaining();
      }
      return 8;
    }
  }
}
