package io.skippr.connect.lake.convert;

import org.apache.kafka.connect.sink.SinkRecord;

/** Turns a sink record into a lake row. One instance per task; it keeps per-table schema state. */
public interface RowConverter {

  /**
   * Converts one record.
   *
   * @return the row, or {@code null} when the record is deliberately skipped (a null value with
   *     {@code behavior.on.null.values=ignore})
   * @throws RecordRejectedException when this record cannot be written; the message is the reason
   */
  LakeRow convert(SinkRecord record);
}
