package io.skippr.connect.lake.partition;

import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/** Computes the Hive-style partition path of a row inside its table. */
public interface Partitioner {

  /**
   * Returns the relative partition path, e.g. {@code partition=2} or {@code dt=2024-05-01/hour=07},
   * with every value percent-encoded so that no value can form {@code /}, {@code ..}, NUL or an
   * over-long segment. Never empty, never starts or ends with {@code /}.
   *
   * @param record the original record (Kafka partition, timestamp)
   * @param row the converted row (fields for the field partitioner and RecordField timestamps)
   * @param unitWallclockMs the wall-clock instant of the compaction unit, fixed when the unit opens
   *     and recorded in its intent, so a replay partitions exactly as the first attempt did
   * @throws io.skippr.connect.lake.convert.RecordRejectedException when the record lacks what the
   *     partitioner needs (missing field, null timestamp)
   */
  String partitionPath(SinkRecord record, Struct row, long unitWallclockMs);
}
