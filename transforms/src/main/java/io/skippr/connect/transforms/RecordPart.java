package io.skippr.connect.transforms;

import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Schema;

/** The part of a record a {@code Key} or {@code Value} variant of a transformation works on. */
enum RecordPart {
  KEY,
  VALUE;

  Schema schema(ConnectRecord<?> record) {
    return this == KEY ? record.keySchema() : record.valueSchema();
  }

  Object value(ConnectRecord<?> record) {
    return this == KEY ? record.key() : record.value();
  }

  /** A copy of the record with this part replaced; topic, partition, timestamp, headers kept. */
  <R extends ConnectRecord<R>> R replace(R record, Schema schema, Object value) {
    return this == KEY
        ? record.newRecord(
            record.topic(),
            record.kafkaPartition(),
            schema,
            value,
            record.valueSchema(),
            record.value(),
            record.timestamp())
        : record.newRecord(
            record.topic(),
            record.kafkaPartition(),
            record.keySchema(),
            record.key(),
            schema,
            value,
            record.timestamp());
  }

  /** {@code key} or {@code value}, for error messages. */
  String label() {
    return this == KEY ? "key" : "value";
  }
}
