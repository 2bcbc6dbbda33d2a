package io.skippr.connect.source.lineprotocol.records;

import io.skippr.connect.source.lineprotocol.Field;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.Tag;
import java.util.Date;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;

/**
 * Turns accepted points into record parts, the same for every source that reads line protocol (HTTP
 * ingest, files), so that points of one measurement land in one table whatever brought them: topic
 * per measurement ({@link MeasurementTopics}); key = the point's identity, its canonical series key
 * and its time in nanoseconds separated by a space ({@code cpu,host=a 1700000000000000001}, as line
 * protocol writes it), so a merge by key makes a point written twice one point; value = Struct of
 * {@code time} (Connect Timestamp: milliseconds, floored), {@code time_ns} (the full time in
 * nanoseconds since the epoch), tag columns (optional string) and field columns (float → float64,
 * integer and unsigned → int64, boolean, string). Headers: {@code measurement} when all rows share
 * one fixed topic, and {@code database} when the caller names one.
 *
 * <p>With {@link ValueForm#JSON} the value is not a Struct but its JSON payload ({@link
 * PointJson}), written straight from the point for a source whose values are bytes ({@code
 * record.encoding=json}).
 *
 * <p>Keeps the columns each measurement has so far ({@link MeasurementSchemas}): thread-safe, one
 * per task.
 */
public final class PointConverter {

  /** Header holding the measurement name. */
  public static final String MEASUREMENT_HEADER = "measurement";

  /** Header holding the database (HTTP: v1 db / v2 bucket / v3 db of the request). */
  public static final String DATABASE_HEADER = "database";

  /** The column of the point's time in milliseconds (Connect Timestamp). */
  public static final String TIME_COLUMN = MeasurementSchemas.TIME;

  /** The column of the point's time in nanoseconds since the epoch. */
  public static final String TIME_NS_COLUMN = MeasurementSchemas.TIME_NS;

  /** What a point's value is made as. */
  public enum ValueForm {
    /** A Struct, turned into bytes by the connector's value.converter. */
    STRUCT,
    /** The JSON payload of that Struct ({@link io.skippr.connect.json.JsonPayload}). */
    JSON
  }

  private final MeasurementTopics topics;
  private final MeasurementSchemas schemas;
  private final ValueForm form;

  /** A converter of Struct values whose columns live in memory only. */
  public PointConverter(MeasurementTopics topics) {
    this(topics, ColumnStore.NONE, ValueForm.STRUCT);
  }

  public PointConverter(MeasurementTopics topics, ColumnStore columns, ValueForm form) {
    this.topics = topics;
    this.schemas = new MeasurementSchemas(columns);
    this.form = form;
  }

  /**
   * The record parts for the point, or the reason it cannot be written.
   *
   * @param database carried as the {@code database} header, or null for none
   */
  public PointRecord convert(Point point, String database) {
    MeasurementTopics.Resolved topic = topics.resolve(point.measurement());
    if (topic.topic() == null) {
      return PointRecord.rejected(topic.rejection());
    }
    String unfit = unfit(point);
    if (unfit != null) {
      return PointRecord.rejected(unfit);
    }
    Object resolved = schemas.schemaFor(point);
    if (resolved instanceof MeasurementSchemas.Conflict conflict) {
      return PointRecord.rejected(conflict.reason());
    }
    Schema schema = (Schema) resolved;
    long millis = Math.floorDiv(point.timeNanos(), 1_000_000L);
    Object value =
        form == ValueForm.JSON
            ? PointJson.payload(schema, point, millis)
            : struct(schema, point, millis);
    ConnectHeaders headers = new ConnectHeaders();
    if (topics.fixed()) {
      headers.addString(MEASUREMENT_HEADER, point.measurement());
    }
    if (database != null) {
      headers.addString(DATABASE_HEADER, database);
    }
    String key = point.seriesKey() + ' ' + point.timeNanos();
    return new PointRecord(topic.topic(), key, schema, value, millis, headers, null);
  }

  private static Struct struct(Schema schema, Point point, long millis) {
    Struct value =
        new Struct(schema)
            .put(MeasurementSchemas.TIME, new Date(millis))
            .put(MeasurementSchemas.TIME_NS, point.timeNanos());
    for (Tag t : point.tags()) {
      value.put(t.key(), t.value());
    }
    for (Field f : point.fields()) {
      value.put(f.key(), f.value());
    }
    return value;
  }

  /** Why the point's keys or values cannot be columns, or null. */
  private static String unfit(Point point) {
    for (Tag t : point.tags()) {
      if (t.key().equals(TIME_NS_COLUMN)) {
        return reserved("tag");
      }
    }
    for (Field f : point.fields()) {
      if (f.key().equals(TIME_NS_COLUMN)) {
        return reserved("field");
      }
      if (f.exceedsSignedLong()) {
        return "unsigned value of field '"
            + f.key()
            + "' is above 9223372036854775807 and does not fit the int64 column";
      }
    }
    return null;
  }

  private static String reserved(String what) {
    return "'"
        + TIME_NS_COLUMN
        + "' cannot be a "
        + what
        + " key: the column holds the point's time in nanoseconds";
  }
}
