package io.skippr.connect.cli.audit;

import org.apache.kafka.common.TopicPartition;

/**
 * Reads Kafka at an offset the way the sink does (read_committed) to tell offsets that hold records
 * from offsets that hold none: transaction markers, aborted records, records removed by compaction.
 */
@FunctionalInterface
interface RecordProbe {

  /** The offset of the first record in {@code [from, to]}, if any. */
  Result firstRecord(TopicPartition tp, long from, long to);

  /** What a probe found. */
  record Result(Outcome outcome, long offset, String why) {
    static Result found(long offset) {
      return new Result(Outcome.FOUND, offset, null);
    }

    static Result none() {
      return new Result(Outcome.NONE, -1, null);
    }

    static Result unknown(String why) {
      return new Result(Outcome.UNKNOWN, -1, why);
    }
  }

  /** Whether the range holds a record. */
  enum Outcome {
    FOUND,
    NONE,
    UNKNOWN
  }
}
