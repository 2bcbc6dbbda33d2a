package io.skippr.connect.source.lineprotocol.records;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;

/**
 * What an accepted point becomes, before a source wraps it in its own {@code SourceRecord}: exactly
 * one of {@code rejection} and the record parts is set.
 *
 * @param topic the measurement's topic
 * @param key the point's identity: canonical series key, a space, its time in nanoseconds
 * @param schema the measurement's value schema so far
 * @param value the Struct of {@code time}, tags and fields, or its JSON payload ({@link
 *     PointConverter.ValueForm#JSON})
 * @param timestampMillis the point's time in milliseconds
 * @param headers {@code measurement} with a fixed topic, {@code database} when given; may be empty
 * @param rejection why the point cannot be written, or null
 */
public record PointRecord(
    String topic,
    String key,
    Schema schema,
    Object value,
    long timestampMillis,
    ConnectHeaders headers,
    String rejection) {

  static PointRecord rejected(String reason) {
    return new PointRecord(null, null, null, null, 0L, null, reason);
  }

  public boolean accepted() {
    return rejection == null;
  }
}
