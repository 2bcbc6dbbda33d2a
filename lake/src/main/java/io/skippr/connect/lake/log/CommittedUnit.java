package io.skippr.connect.lake.log;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A committed compaction unit: offsets {@code [start, end]} of one TP are in the lake.
 *
 * @param source where the unit's last record came from in a source run without Kafka, else null
 */
public record CommittedUnit(
    String id,
    long start,
    long end,
    long epoch,
    @JsonInclude(JsonInclude.Include.NON_NULL) LogEntry.SourcePosition source) {

  /** A unit of a Kafka topic. */
  public CommittedUnit(String id, long start, long end, long epoch) {
    this(id, start, end, epoch, null);
  }
}
