package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.http.config.TopicConfig;
import io.skippr.connect.source.http.config.TopicNames;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.delivery.WriteTicket;
import io.skippr.connect.source.lineprotocol.Field;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.Tag;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;

/**
 * Turns accepted points into records: topic per measurement, key = canonical series key, value =
 * Struct of {@code time} (Connect Timestamp: milliseconds, sub-millisecond digits are dropped), tag
 * columns (optional string) and field columns (float → float64, integer and unsigned → int64,
 * boolean, string). Headers: {@code measurement} when all rows share one fixed topic, and {@code
 * database} when the request named one.
 */
public final class PointRecords {

  /** Header holding the measurement name. */
  public static final String MEASUREMENT_HEADER = "measurement";

  /** Header holding the v1 db / v2 bucket / v3 db of the request. */
  public static final String DATABASE_HEADER = "database";

  private final TopicConfig.Values topics;
  private final MeasurementSchemas schemas = new MeasurementSchemas();
  private final Map<String, String> topicByMeasurement = new ConcurrentHashMap<>();

  public PointRecords(TopicConfig.Values topics) {
    this.topics = topics;
  }

  /** The record for the point, or the reason it cannot be written. */
  public Converted convert(Point point, WriteTicket ticket, String database) {
    String topic = topicFor(point.measurement());
    if (topic == null) {
      return Converted.rejected(
          "measurement '" + point.measurement() + "' does not map to a usable topic name");
    }
    for (Field f : point.fields()) {
      if (f.exceedsSignedLong()) {
        return Converted.rejected(
            "unsigned value of field '"
                + f.key()
                + "' is above 9223372036854775807 and does not fit the int64 column");
      }
    }
    Object resolved = schemas.schemaFor(point);
    if (resolved instanceof MeasurementSchemas.Conflict conflict) {
      return Converted.rejected(conflict.reason());
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
    if (!topics.fixedTopic().isEmpty()) {
      headers.addString(MEASUREMENT_HEADER, point.measurement());
    }
    if (database != null) {
      headers.addString(DATABASE_HEADER, database);
    }
    return Converted.of(
        new TrackedRecord(ticket, true, topic, point.seriesKey(), schema, value, millis, headers));
  }

  private String topicFor(String measurement) {
    if (!topics.fixedTopic().isEmpty()) {
      return topics.fixedTopic();
    }
    String topic =
        topicByMeasurement.computeIfAbsent(
            measurement, m -> topics.prefix() + TopicNames.sanitize(m));
    boolean usable = TopicNames.isLegal(topic) && !topic.equals(topics.rejectionTopic());
    return usable ? topic : null;
  }
}
