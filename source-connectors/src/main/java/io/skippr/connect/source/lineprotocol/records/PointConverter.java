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
 * per measurement ({@link MeasurementTopics}), key = canonical series key, value = Struct of {@code
 * time} (Connect Timestamp: milliseconds, sub-millisecond digits are dropped), tag columns
 * (optional string) and field columns (float → float64, integer and unsigned → int64, boolean,
 * string). Headers: {@code measurement} when all rows share one fixed topic, and {@code database}
 * when the caller names one.
 *
 * <p>Keeps the columns each measurement has so far ({@link MeasurementSchemas}): thread-safe, one
 * per task.
 */
public final class PointConverter {

  /** Header holding the measurement name. */
  public static final String MEASUREMENT_HEADER = "measurement";

  /** Header holding the database (HTTP: v1 db / v2 bucket / v3 db of the request). */
  public static final String DATABASE_HEADER = "database";

  private final MeasurementTopics topics;
  private final MeasurementSchemas schemas = new MeasurementSchemas();

  public PointConverter(MeasurementTopics topics) {
    this.topics = topics;
  }

  /**
   * The record parts for the point, or the reason it cannot be written.
   *
   * @param database carried as the {@code database} header, or null for none
   */
  public PointRecord convert(Point point, String database) {
    String topic = topics.topicFor(point.measurement());
    if (topic == null) {
      return PointRecord.rejected(
          "measurement '" + point.measurement() + "' does not map to a usable topic name");
    }
    for (Field f : point.fields()) {
      if (f.exceedsSignedLong()) {
        return PointRecord.rejected(
            "unsigned value of field '"
                + f.key()
                + "' is above 9223372036854775807 and does not fit the int64 column");
      }
    }
    Object resolved = schemas.schemaFor(point);
    if (resolved instanceof MeasurementSchemas.Conflict conflict) {
      return PointRecord.rejected(conflict.reason());
    }
    Schema schema = (Schema) resolved;
    long millis = Math.floorDiv(point.timeNanos(), 1_000_000L);
    Struct value = new Struct(schema).put(MeasurementSchemas.TIME, new Date(millis));
    for (Tag t : point.tags()) {
      value.put(t.key(), t.value());
    }
    for (Field f : point.fields()) {
      value.put(f.key(), f.value());
    }
    ConnectHeaders headers = new ConnectHeaders();
    if (topics.fixed()) {
      headers.addString(MEASUREMENT_HEADER, point.measurement());
    }
    if (database != null) {
      headers.addString(DATABASE_HEADER, database);
    }
    return new PointRecord(topic, point.seriesKey(), schema, value, millis, headers, null);
  }
}
