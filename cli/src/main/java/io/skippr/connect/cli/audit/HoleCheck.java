package io.skippr.connect.cli.audit;

import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * Asks Kafka what lies in a hole between units: records (a gap), none (transaction markers, aborted
 * or compacted records), or nothing any more (expired); offsets past Kafka's stable end are not its
 * to judge yet.
 */
final class HoleCheck {
  private final RecordProbe probe;

  HoleCheck(RecordProbe probe) {
    this.probe = probe;
  }

  /**
   * Adds what {@code hole} holds to {@code out}; returns true when Kafka showed it holds no record.
   */
  boolean check(TopicPartition tp, KafkaTp kafka, OffsetHole hole, List<Finding> out) {
    long start = hole.start();
    long end = Math.min(hole.end(), kafka.end() - 1);
    if (start < kafka.logStart() && start <= end) {
      long expiredEnd = Math.min(end, kafka.logStart() - 1);
      out.add(RangeFindings.expired(start, expiredEnd, kafka, hole.where(), hole.generation()));
      start = expiredEnd + 1;
    }
    end = Math.min(end, kafka.stableEnd() - 1);
    if (start > end) {
      return false;
    }
    RecordProbe.Result found = probe.firstRecord(tp, start, end);
    switch (found.outcome()) {
      case FOUND -> {
        out.add(RangeFindings.gap(hole, start, end, found.offset()));
        return false;
      }
      case NONE -> {
        return true;
      }
      default -> {
        out.add(RangeFindings.unchecked(start, end, found.why(), hole.generation()));
        return false;
      }
    }
  }
}
