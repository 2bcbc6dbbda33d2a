package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.common.encoding.ValueEncoder;
import io.skippr.connect.source.http.config.TopicConfig;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.delivery.WriteTicket;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.records.ColumnStore;
import io.skippr.connect.source.lineprotocol.records.MeasurementTopics;
import io.skippr.connect.source.lineprotocol.records.PointConverter;
import io.skippr.connect.source.lineprotocol.records.PointRecord;
import io.skippr.connect.source.lineprotocol.records.TopicGate;

/**
 * Turns accepted points into records that know their request: the record parts come from the shared
 * {@link PointConverter} (topic per measurement, point key, Struct value), so the file source makes
 * the same records from the same lines. The Kafka timestamp is the time the request arrived, so
 * topic retention counts from arrival however old a point is; the point's time is in the value.
 */
public final class PointRecords {

  /** Header holding the measurement name. */
  public static final String MEASUREMENT_HEADER = PointConverter.MEASUREMENT_HEADER;

  /** Header holding the v1 db / v2 bucket / v3 db of the request. */
  public static final String DATABASE_HEADER = PointConverter.DATABASE_HEADER;

  private final PointConverter converter;
  private final ValueEncoder encoder;

  /** Records whose columns and topics are kept in memory only (tests). */
  public PointRecords(TopicConfig.Values topics) {
    this(topics, TopicGate.OPEN, ColumnStore.NONE, ValueEncoder.none());
  }

  /**
   * @param gate decides whether a measurement may have its topic
   * @param columns where the measurements' columns are kept
   * @param encoder makes the record value (the Struct, or the JSON bytes written from the point)
   */
  public PointRecords(
      TopicConfig.Values topics, TopicGate gate, ColumnStore columns, ValueEncoder encoder) {
    this.encoder = encoder;
    this.converter =
        new PointConverter(
            new MeasurementTopics(
                topics.prefix(), topics.fixedTopic(), topics.rejectionTopic(), gate),
            columns,
            encoder.encodes() ? PointConverter.ValueForm.JSON : PointConverter.ValueForm.STRUCT);
  }

  /** The record for the point (Kafka timestamp = arrival), or the reason it cannot be written. */
  public Converted convert(Point point, WriteTicket ticket, String database) {
    return convert(point, ticket, database, System.currentTimeMillis());
  }

  /**
   * The record for the point, or the reason it cannot be written.
   *
   * @param receivedMillis the record's Kafka timestamp: when the request arrived
   */
  public Converted convert(Point point, WriteTicket ticket, String database, long receivedMillis) {
    PointRecord r = converter.convert(point, database);
    if (!r.accepted()) {
      return Converted.rejected(r.rejection());
    }
    ValueEncoder.Encoded value = encoder.encode(r.topic(), r.schema(), r.value());
    return Converted.of(
        new TrackedRecord(
            ticket,
            true,
            r.topic(),
            r.key(),
            value.schema(),
            value.value(),
            receivedMillis,
            r.headers()));
  }
}
