package io.skippr.connect.lake.convert;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;

/** Sink records for converter tests, as Connect hands them to a task. */
final class Records {
  static final long TIMESTAMP = 1_700_000_000_000L;
  private static final JsonConverter SCHEMALESS = new JsonConverter();

  static {
    SCHEMALESS.configure(Map.of("schemas.enable", "false"), false);
  }

  private Records() {}

  /** A record that came from {@code originalTopic}, partition 2, and kept its position. */
  static SinkRecord record(
      String topic, Schema keySchema, Object key, Schema valueSchema, Object value, long offset) {
    return new SinkRecord(
        topic,
        2,
        keySchema,
        key,
        valueSchema,
        value,
        offset,
        TIMESTAMP + offset,
        TimestampType.CREATE_TIME,
        List.of(),
        topic,
        2,
        offset);
  }

  static SinkRecord value(String topic, Schema valueSchema, Object value, long offset) {
    return record(topic, null, null, valueSchema, value, offset);
  }

  /** A schemaless record whose value is JSON text read as JsonConverter reads it. */
  static SinkRecord json(String topic, String json, long offset) {
    Object value = SCHEMALESS.toConnectData(topic, json.getBytes(StandardCharsets.UTF_8)).value();
    return record(topic, null, null, null, value, offset);
  }

  static FormatConfig config(
      boolean metadata, boolean key, FormatConfig.NullValues nulls, String tableFormat) {
    return new FormatConfig(
        FormatConfig.Codec.SNAPPY,
        FormatConfig.DEFAULT_ROW_GROUP_BYTES,
        metadata,
        key,
        nulls,
        tableFormat);
  }

  static FormatConfig plain() {
    return config(false, false, FormatConfig.NullValues.IGNORE, "${topic}");
  }
}
