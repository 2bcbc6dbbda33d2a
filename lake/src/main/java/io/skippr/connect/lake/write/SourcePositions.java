package io.skippr.connect.lake.write;

import io.skippr.connect.lake.log.LogEntry;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the records of a source run without Kafka came from ({@code skippr sync}): there the TP
 * offsets are a sequence the run assigns, and the commit of each unit records the source position
 * of its last record, so a restart resumes the source exactly after the last committed unit.
 */
@FunctionalInterface
public interface SourcePositions {
  /** Records read from Kafka: their offsets are the truth, nothing more is recorded. */
  SourcePositions NONE = (tp, offset) -> null;

  /**
   * The source position of the record at {@code offset} of {@code tp}, or null. Called on the
   * thread that writes the unit.
   */
  LogEntry.SourcePosition at(TopicPartition tp, long offset);
}
