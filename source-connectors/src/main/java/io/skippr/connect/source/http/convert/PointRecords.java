package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.http.config.TopicConfig;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.delivery.WriteTicket;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.records.MeasurementTopics;
import io.skippr.connect.source.lineprotocol.records.PointConverter;
import io.skippr.connect.source.lineprotocol.records.PointRecord;

/**
 * Turns accepted points into records that know their request: the record parts come from the shared
 * {@link PointConverter} (topic per measurement, series key, Struct value), so the file source
 * makes the same records from the same lines.
 */
public final class PointRecords {

  /** Header holding the measurement name. */
  public static final String MEASUREMENT_HEADER = PointConverter.MEASUREMENT_HEADER;

  /** Header holding the v1 db / v2 bucket / v3 db of the request. */
  public static final String DATABASE_HEADER = PointConverter.DATABASE_HEADER;

  private final PointConverter converter;

  public PointRecords(TopicConfig.Values topics) {
    this.converter =
        new PointConverter(
            new MeasurementTopics(topics.prefix(), topics.fixedTopic(), topics.rejectionTopic()));
  }

  /** The record for the point, or the reason it cannot be written. */
  public Converted convert(Point point, WriteTicket ticket, String database) {
    PointRecord r = converter.convert(point, database);
    if (!r.accepted()) {
      return Converted.rejected(r.rejection());
    }
    return Converted.of(
        new TrackedRecord(
            ticket,
            true,
            r.topic(),
            r.key(),
            r.schema(),
            r.value(),
            r.timestampMillis(),
            r.headers()));
  }
}
