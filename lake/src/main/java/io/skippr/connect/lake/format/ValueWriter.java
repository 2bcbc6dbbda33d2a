package io.skippr.connect.lake.format;

import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes one non-null Connect value into the current Parquet field. A tree of these is built once
 * per file schema, so writing a row does no schema work.
 */
@FunctionalInterface
interface ValueWriter {
  void write(RecordConsumer consumer, Object value);
}
