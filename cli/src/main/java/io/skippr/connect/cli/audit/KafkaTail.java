package io.skippr.connect.cli.audit;

import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * What Kafka holds after the lake's last unit of a TP: records expired before they landed, the lag
 * (from the first record the lake does not hold to Kafka's end), and a group offset past the lake,
 * whose consumer would skip those records.
 */
final class KafkaTail {
  private final RecordProbe probe;

  KafkaTail(RecordProbe probe) {
    this.probe = probe;
  }

  /**
   * Adds what it finds to {@code out}; returns Kafka's side of the report.
   *
   * @param group the connector group's committed offset, or null
   */
  TpReport.Kafka check(TpLake lake, KafkaTp kafka, Long group, List<Finding> out) {
    Long next = lake.resume();
    if (next != null && next > kafka.end()) {
      out.add(RangeFindings.kafkaBehindLake(next, kafka));
      return report(kafka, 0);
    }
    long from = next == null ? kafka.logStart() : next;
    if (from < kafka.logStart()) {
      out.add(
          RangeFindings.expired(
              from, kafka.logStart() - 1, kafka, "after the lake's last unit", null));
      from = kafka.logStart();
    }
    if (from >= kafka.stableEnd()) {
      return report(kafka, 0);
    }
    TopicPartition tp = new TopicPartition(lake.topic(), lake.partition());
    RecordProbe.Result found = probe.firstRecord(tp, from, kafka.stableEnd() - 1);
    if (found.outcome() == RecordProbe.Outcome.UNKNOWN) {
      out.add(RangeFindings.unchecked(from, kafka.stableEnd() - 1, found.why(), null));
      return report(kafka, 0);
    }
    if (found.outcome() == RecordProbe.Outcome.NONE) {
      return report(kafka, 0);
    }
    long first = found.offset();
    out.add(RangeFindings.lag(first, kafka));
    if (group != null && group > first) {
      out.add(RangeFindings.groupAhead(group, next, first));
    }
    return report(kafka, kafka.end() - first);
  }

  private static TpReport.Kafka report(KafkaTp kafka, long lag) {
    return new TpReport.Kafka(kafka.logStart(), kafka.end(), kafka.stableEnd(), lag);
  }
}
