package io.skippr.connect.source.file.records;

import io.skippr.connect.source.common.encoding.ValueEncoder;
import io.skippr.connect.source.file.format.Parsed;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Builds the records of a file: its partition and the offset after the record travel with each one,
 * so Connect commits exactly the position after the last record it wrote (in the same transaction,
 * with exactly-once support). With {@code record.encoding=json} the value leaves as its JSON bytes.
 */
public final class FileRecords {

  private final String topic;
  private final ValueEncoder encoder;

  /** Records whose values are left to the connector's value.converter. */
  public FileRecords(String topic) {
    this(topic, ValueEncoder.none());
  }

  /**
   * @param topic the topic of values without one of their own (ndjson, csv)
   * @param encoder makes the record value (as parsed, or its JSON bytes)
   */
  public FileRecords(String topic, ValueEncoder encoder) {
    this.topic = topic;
    this.encoder = encoder;
  }

  /**
   * @param readMillis the record timestamp when the value carries none (the time it was read)
   * @throws org.apache.kafka.connect.errors.DataException when the value cannot become JSON
   */
  public SourceRecord record(
      Map<String, Object> partition, Map<String, Object> offset, Parsed parsed, long readMillis) {
    String key = parsed.key();
    String recordTopic = parsed.topic() != null ? parsed.topic() : topic;
    ValueEncoder.Encoded value = encoder.encode(recordTopic, parsed.valueSchema(), parsed.value());
    return new SourceRecord(
        partition,
        offset,
        recordTopic,
        null,
        key == null ? null : Schema.STRING_SCHEMA,
        key,
        value.schema(),
        value.value(),
        parsed.timestamp() != null ? parsed.timestamp() : readMillis,
        parsed.headers());
  }
}
