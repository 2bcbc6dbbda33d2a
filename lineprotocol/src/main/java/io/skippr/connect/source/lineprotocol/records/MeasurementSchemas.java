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
 * optional) as new tags and fields appear, so older rows stay valid under the newer schema.
 *
 * <p>The columns live in a {@link ColumnStore}: new columns are saved before the row that brings
 * them is accepted, conditionally on the version they extend. When another task saved first, the
 * stored columns are read again and the row checked against them, so every task sharing the store
 * holds each column to the same type, across restarts too.
 */
final class MeasurementSchemas {

  /** Column that holds the point's timestamp (milliseconds, a Connect Timestamp). */
  static final String TIME = "time";

  /** Column that holds the point's timestamp in nanoseconds since the epoch. */
  static final String TIME_NS = "time_ns";

  /** Saves that lose the race this often in a row give up (another task keeps changing it). */
  private static final int MAX_ATTEMPTS = 100;

  private final ColumnStore store;
  private final Map<String, Table> tables = new ConcurrentHashMap<>();

  MeasurementSchemas(ColumnStore store) {
    this.store = store;
  }

  /** The schema for the point, or a {@link Conflict} naming the column whose type clashes. */
  Object schemaFor(Point point) {
    Table table = tables.get(point.measurement());
    if (table == null) {
      Table loaded = new Table(point.measurement(), store.load(point.measurement()));
      Table raced = tables.putIfAbsent(point.measurement(), loaded);
      table = raced != null ? raced : loaded;
    }
    return table.resolve(point);
  }

  /** A column whose type clashes with the measurement's. */
  record Conflict(String reason) {}

  /** Columns and schema of one measurement; readers use the immutable snapshot without locking. */
  private final class Table {
    private final String measurement;
    private volatile Snapshot snapshot;

    Table(String measurement, ColumnStore.Stored stored) {
      this.measurement = measurement;
      this.snapshot = Snapshot.of(stored);
    }

    Object resolve(Point point) {
      Snapshot current = snapshot;
      Object known = current.check(point);
      return known != null ? known : extend(point);
    }

    /** Saves the point's new columns (under the lock, re-checking the latest snapshot). */
    private synchronized Object extend(Point point) {
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        Snapshot current = snapshot;
        Object known = current.check(point);
        if (known != null) {
          return known;
        }
        Map<String, ColumnKind> columns = new LinkedHashMap<>(current.columns());
        point.tags().forEach(t -> columns.putIfAbsent(t.key(), ColumnKind.TAG));
        point.fields().forEach(f -> columns.putIfAbsent(f.key(), ColumnKind.of(f.type())));
        if (store.save(measurement, current.version(), columns)) {
          Snapshot next = new Snapshot(current.version() + 1, columns, build(columns));
          snapshot = next;
          return next.schema();
        }
        snapshot = Snapshot.of(store.load(measurement));
      }
      return new Conflict(
          "the columns of measurement '"
              + measurement
              + "' kept changing while this row was checked; retry it");
    }
  }

  /**
   * @param version the stored version these columns are
   * @param columns never modified once published
   */
  private record Snapshot(long version, Map<String, ColumnKind> columns, Schema schema) {

    static Snapshot of(ColumnStore.Stored stored) {
      Map<String, ColumnKind> columns = new LinkedHashMap<>(stored.columns());
      return new Snapshot(stored.version(), columns, build(columns));
    }

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
    SchemaBuilder b =
        SchemaBuilder.struct()
            .field(TIME, Timestamp.SCHEMA)
            .field(TIME_NS, Schema.OPTIONAL_INT64_SCHEMA);
    columns.forEach((name, kind) -> b.field(name, kind.schema));
    return b.build();
  }
}
