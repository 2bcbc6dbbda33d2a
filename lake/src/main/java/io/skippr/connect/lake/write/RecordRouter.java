package io.skippr.connect.lake.write;

import io.skippr.connect.lake.convert.LakeRow;
import io.skippr.connect.lake.convert.RecordRejectedException;
import io.skippr.connect.lake.convert.RowConverter;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.maintenance.LateWrites;
import io.skippr.connect.lake.partition.Partitioner;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Where a record goes: convert it to its table's row, then partition the row. A record that cannot
 * be converted or partitioned is reported (dead letter queue, or a task failure naming it) and
 * yields no row; the batch goes on.
 */
final class RecordRouter {
  /** A row and its partition path. */
  record Routed(LakeRow row, String path) {}

  private final RowConverter converter;
  private final Partitioner partitioner;
  private final ErrantRecords errant;
  private final LateWrites lateWrites;

  RecordRouter(
      RowConverter converter,
      Partitioner partitioner,
      ErrantRecords errant,
      LateWrites lateWrites) {
    this.converter = converter;
    this.partitioner = partitioner;
    this.errant = errant;
    this.lateWrites = lateWrites;
  }

  /**
   * The record's row and path under a unit opened at {@code unitWallclockMs}; null when it yields
   * no row or was rejected.
   */
  Routed route(SinkRecord record, long unitWallclockMs) {
    LakeRow row;
    try {
      row = converter.convert(record);
      if (row != null && LakeLayout.SYSTEM_DIR.equals(row.table())) {
        throw new RecordRejectedException(
            "table name '" + LakeLayout.SYSTEM_DIR + "' is reserved for the lake's logs");
      }
    } catch (RecordRejectedException e) {
      errant.reject(record, e);
      return null;
    }
    return row == null ? null : partition(record, row, unitWallclockMs);
  }

  /** The row's path under a unit opened at {@code unitWallclockMs}; null when rejected. */
  Routed partition(SinkRecord record, LakeRow row, long unitWallclockMs) {
    try {
      String path = partitioner.partitionPath(record, row.row(), unitWallclockMs);
      lateWrites.check(row.table(), path, unitWallclockMs);
      return new Routed(row, path);
    } catch (RecordRejectedException e) {
      errant.reject(record, e);
      return null;
    }
  }
}
