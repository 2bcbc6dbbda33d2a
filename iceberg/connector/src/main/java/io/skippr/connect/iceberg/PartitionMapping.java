package io.skippr.connect.iceberg;

import io.skippr.connect.lake.partition.PartitioningConfig;
import io.skippr.connect.lake.partition.PartitioningConfig.Kind;
import io.skippr.connect.lake.partition.PartitioningConfig.TimestampSource;
import io.skippr.connect.lake.storage.PathEncoder;
import java.nio.ByteBuffer;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The Iceberg partition spec that follows the lake's partitioner, and each file's partition values.
 *
 * <ul>
 *   <li>{@code field}: identity on each partition field's column.
 *   <li>{@code time} with {@code timestamp.extractor=RecordField} on a timestamp (or date) column,
 *       {@code timezone=UTC} and {@code partition.duration.ms} of an hour or a day: {@code
 *       hour(column)} or {@code day(column)}; {@code Record} does the same on {@code __timestamp}
 *       when {@code include.kafka.metadata} adds it. Iceberg's transforms count in UTC, so other
 *       time zones, durations and Wallclock partition by identity on the path's columns instead.
 *   <li>{@code default}: identity on {@code __partition} when the rows carry it, else on the path's
 *       {@code partition} column.
 *   <li>A path column is a table column that no file holds (such as {@code year} of {@code
 *       'year'=YYYY}): readers take its value from the partition, as for Hive tables. A path column
 *       whose name a data column has already is left out of the spec.
 * </ul>
 *
 * Values of data columns come from the file's statistics (all rows of a file share them), values of
 * path columns from the file's path.
 */
final class PartitionMapping {
  /** Table property naming the path columns (comma-separated). */
  static final String PATH_COLUMNS = "skippr.path-columns";

  private static final long HOUR_MS = 3_600_000L;
  private static final long DAY_MS = 86_400_000L;

  /** The table's schema and spec for a first file of {@code fileSchema} at {@code path}. */
  record Plan(Schema schema, PartitionSpec spec, List<String> pathColumns) {}

  private PartitionMapping() {}

  static Plan plan(PartitioningConfig config, Schema fileSchema, String partitionPath) {
    List<String[]> segments = segments(partitionPath);
    boolean byFields = config.kind() == Kind.FIELD || config.kind() == Kind.FIELD_TIME;
    boolean timed = config.kind() == Kind.TIME || config.kind() == Kind.FIELD_TIME;
    int fieldSegments = byFields ? config.fieldNames().size() : 0;
    String timeColumn = timeColumn(config, fileSchema);
    Fields fields = new Fields(fileSchema, config.kind() == Kind.DEFAULT);
    for (int i = 0; i < segments.size(); i++) {
      String source = i < fieldSegments ? config.fieldNames().get(i) : null;
      if (config.kind() == Kind.DEFAULT && fileSchema.findField("__partition") != null) {
        source = "__partition";
      }
      if (timed && i >= fieldSegments && timeColumn != null) {
        fields.time(config.durationMs() == HOUR_MS ? "hour" : "day", timeColumn);
      } else {
        fields.segment(segments.get(i)[0], source);
      }
    }
    Schema schema = new Schema(fields.columns);
    PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
    for (String[] field : fields.fields) {
      switch (field[0]) {
        case "hour" -> spec.hour(field[1]);
        case "day" -> spec.day(field[1]);
        default -> spec.identity(field[1]);
      }
    }
    return new Plan(schema, spec.build(), List.copyOf(fields.pathColumns));
  }

  /** The partition fields of a plan as its path's segments name them, and the path columns. */
  private static final class Fields {
    private final Schema fileSchema;
    private final boolean numberedPaths;
    private final List<Types.NestedField> columns;
    private final List<String> pathColumns = new ArrayList<>();
    private final List<String[]> fields = new ArrayList<>(); // {transform, column}
    private int nextId;
    private boolean timeDone;

    Fields(Schema fileSchema, boolean numberedPaths) {
      this.fileSchema = fileSchema;
      this.numberedPaths = numberedPaths;
      this.columns = new ArrayList<>(fileSchema.columns());
      this.nextId = fileSchema.highestFieldId();
    }

    /** The time segments of a path map to one transform of the time column. */
    void time(String transform, String column) {
      if (!timeDone) {
        fields.add(new String[] {transform, column});
        timeDone = true;
      }
    }

    /** Identity on the data column a segment comes from, else on a column of the path. */
    void segment(String name, String source) {
      if (source != null && fileSchema.findField(source) != null) {
        fields.add(new String[] {"identity", source});
      } else if (fileSchema.findField(name) == null && !pathColumns.contains(name)) {
        Type type = numberedPaths ? Types.IntegerType.get() : Types.StringType.get();
        columns.add(Types.NestedField.optional(++nextId, name, type));
        pathColumns.add(name);
        fields.add(new String[] {"identity", name});
      }
    }
  }

  /** The column Iceberg's time transform can partition by, or null when none fits. */
  private static String timeColumn(PartitioningConfig config, Schema schema) {
    boolean timed = config.kind() == Kind.TIME || config.kind() == Kind.FIELD_TIME;
    long duration = config.durationMs();
    if (!timed
        || !config.timezone().normalized().equals(ZoneOffset.UTC)
        || (duration != HOUR_MS && duration != DAY_MS)) {
      return null;
    }
    String column =
        config.timestampSource() == TimestampSource.RECORD_FIELD
            ? config.timestampField()
            : config.timestampSource() == TimestampSource.RECORD ? "__timestamp" : null;
    Types.NestedField field = column == null ? null : schema.findField(column);
    if (field == null) {
      return null;
    }
    Type.TypeID type = field.type().typeId();
    boolean fits =
        type == Type.TypeID.TIMESTAMP || (type == Type.TypeID.DATE && duration == DAY_MS);
    return fits ? column : null;
  }

  /** A file's partition values under the table's spec. */
  static PartitionData values(
      PartitionSpec spec, Schema schema, List<String> pathColumns, Metrics metrics, String path) {
    PartitionData data = new PartitionData(spec.partitionType());
    Map<String, String> segments = new LinkedHashMap<>();
    for (String[] segment : segments(path)) {
      segments.putIfAbsent(segment[0], segment[1]);
    }
    List<PartitionField> fields = spec.fields();
    for (int i = 0; i < fields.size(); i++) {
      PartitionField field = fields.get(i);
      Types.NestedField source = schema.findField(field.sourceId());
      String name = schema.findColumnName(field.sourceId());
      Object value;
      if (pathColumns.contains(name)) {
        String text = segments.get(name);
        value = text == null ? null : Conversions.fromPartitionString(source.type(), text);
      } else {
        value = lowerBound(metrics, source);
      }
      data.set(i, value == null ? null : transform(field.transform(), source.type(), value));
    }
    return data;
  }

  @SuppressWarnings("unchecked")
  private static Object transform(Transform<?, ?> transform, Type type, Object value) {
    return ((Transform<Object, Object>) transform).bind(type).apply(value);
  }

  private static Object lowerBound(Metrics metrics, Types.NestedField column) {
    Map<Integer, ByteBuffer> bounds = metrics.lowerBounds();
    ByteBuffer bound = bounds == null ? null : bounds.get(column.fieldId());
    return bound == null ? null : Conversions.fromByteBuffer(column.type(), bound);
  }

  /** The decoded {@code name=value} segments of a partition path. */
  static List<String[]> segments(String partitionPath) {
    List<String[]> segments = new ArrayList<>();
    if (partitionPath == null || partitionPath.isEmpty()) {
      return segments;
    }
    for (String segment : partitionPath.split("/")) {
      int eq = segment.indexOf('=');
      if (eq > 0) {
        segments.add(
            new String[] {
              PathEncoder.decode(segment.substring(0, eq)),
              PathEncoder.decode(segment.substring(eq + 1))
            });
      }
    }
    return segments;
  }

  /** The path columns a table property names. */
  static List<String> pathColumns(Map<String, String> properties) {
    String value = properties.get(PATH_COLUMNS);
    return value == null || value.isEmpty() ? List.of() : Arrays.asList(value.split(","));
  }
}
