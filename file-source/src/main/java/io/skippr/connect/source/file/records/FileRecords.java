package io.skippr.connect.source.file.records;

import io.skippr.connect.source.file.format.Parsed;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Builds the records of a file: its partition and the offset after the record travel with each one,
 * so Connect commits exactly the position after the last record it wrote (in the same transaction,
 * with exactly-once support).
 */
public final class FileRecords {

  private final String topic;

  /**
   * @param topic the topic of values without one of their own (ndjson, csv)
   */
  public FileRecords(String topic) {
    this.topic = topic;
  }

  /**
   * @param readMillis the record timestamp when the value carries none (the time it was read)
   */
  public SourceRecord record(
      Map<String, Object> partition, Map<String, Object> offset, Parsed parsed, long readMillis) {
    String key = parsed.key();
    return new SourceRecord(
        partition,
        offset,
        parsed.topic() != null ? parsed.topic() : topic,
        null,
        key == null ? null : Schema.STRING_SCHEMA,
        key,
        parsed.valueSchema(),
        parsed.value(),
        parsed.timestamp() != null ? parsed.timestamp() : readMillis,
        parsed.headers());
  }
}
