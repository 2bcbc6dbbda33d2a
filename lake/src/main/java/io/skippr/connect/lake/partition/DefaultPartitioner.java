package io.skippr.connect.lake.partition;

import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * {@code partition={original Kafka partition}}: transforms that reroute records do not move rows.
 */
final class DefaultPartitioner implements Partitioner {
  static final String NAME = "partition";

  @Override
  public String partitionPath(SinkRecord record, Struct row, long unitWallclockMs) {
    Integer original = record.originalKafkaPartition();
    int partition = original != null ? original : record.kafkaPartition();
    return NAME + "=" + partition;
  }
}
