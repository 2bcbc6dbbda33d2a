package io.skippr.connect.source.lineprotocol.records;

import io.skippr.connect.source.lineprotocol.Field;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.Tag;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Timestamp;

/**
 * The columns each measurement has so far. The first row that brings a column fixes its type; a
 * later row that gives it another type is rejected. The value schema grows (all new columns
 * optional) as new tags and fields appear, so older rows stay valid under the newer schema. Kept in
 * memory per task: a restarted task learns the types again from the rows it receives.
 */
final class MeasurementSchemas {

  /** Column that holds the point's timestamp. */
  static final String TIME = "time";

  private final Map<String, Table> tables = new ConcurrentHashMap<>();

  /** The schema for the point, or a {@link Conflict} naming the column whose type clashes. */
  Object schemaFor(Point point) {
    return tables.computeIfAbsent(point.measurement(), m -> new Table()).resolve(point);
  }

  /** A column whose type clashes with the measurement's. */
  record Conflict(String reason) {}

  /** Columns and schema of one measurement; readers use the immutable snapshot without locking. */
  private static final class Table {
    private volatile Snapshot snapshot = new Snapshot(Map.of(), build(Map.of()));

    Object resolve(Point point) {
      Snapshot current = snapshot;
      Object known = current.check(point);
      return known != null ? known : extend(point);
    }

    /** Adds the point's new columns (under the lock, re-checking the latest snapshot). */
    private synchronized Object extend(Point point) {
      Snapshot current = snapshot;
      Object known = current.check(point);
      if (known != null) {
        return known;
      }
      Map<String, ColumnKind> columns = new LinkedHashMap<>(current.columns());
      point.tags().forEach(t -> columns.putIfAbsent(t.key(), ColumnKind.TAG));
      point.fields().forEach(f -> columns.putIfAbsent(f.key(), ColumnKind.of(f.type())));
      Snapshot next = new Snapshot(columns, build(columns));
      snapshot = next;
      return next.schema();
    }
  }

  /**
   * @param columns never modified once published
   */
  private record Snapshot(Map<String, ColumnKind> columns, Schema schema) {

    /** The schema when it covers the point, a conflict, or null when columns are missing. */
    Object check(Point point) {
      boolean complete = true;
      for (Tag tag : point.tags()) {
        ColumnKind known = columns.get(tag.key());
        if (known != null && known != ColumnKind.TAG) {
          return conflict(point, tag.key(), ColumnKind.TAG, known);
        }
        complete &= known != null;
      }
      for (Field field : point.fields()) {
        ColumnKind known = columns.get(field.key());
        ColumnKind kind = ColumnKind.of(field.type());
        if (known != null && known != kind) {
          return conflict(point, field.key(), kind, known);
        }
        complete &= known != null;
      }
      return complete ? schema : null;
    }
  }

  private static Conflict conflict(Point point, String key, ColumnKind given, ColumnKind known) {
    return new Conflict(
        "'"
            + key
            + "' is written as "
            + given.label
            + " but measurement '"
            + point.measurement()
            + "' already has it as "
            + known.label);
  }

  private static Schema build(Map<String, ColumnKind> columns) {
    SchemaBuilder b = SchemaBuilder.struct().field(TIME, Timestamp.SCHEMA);
    columns.forEach((name, kind) -> b.field(name, kind.schema));
    return b.build();
  }
}
