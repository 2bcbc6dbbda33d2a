package io.skippr.connect.lake.partition;

import java.util.List;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/** The paths of several partitioners joined in order ({@code field+time}). */
final class CompositePartitioner implements Partitioner {
  private final List<Partitioner> parts;

  CompositePartitioner(List<Partitioner> parts) {
    this.parts = List.copyOf(parts);
  }

  @Override
  public String partitionPath(SinkRecord record, Struct row, long unitWallclockMs) {
    StringBuilder path = new StringBuilder();
    for (Partitioner part : parts) {
      if (path.length() > 0) {
        path.append('/');
      }
      path.append(part.partitionPath(record, row, unitWallclockMs));
    }
    return path.toString();
  }
}
