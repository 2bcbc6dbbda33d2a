package io.skippr.connect.cli.audit;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * Compares one TP's committed offset ranges with each other and with Kafka: overlaps and holes from
 * the log ({@link UnitRanges}), each hole classified by Kafka ({@link HoleCheck}: a gap when Kafka
 * holds records there, nothing when they are transaction markers, aborted or compacted records,
 * expired when Kafka no longer holds them), then lag and the group's offset ({@link KafkaTail}).
 * The findings' words are {@link RangeFindings}'.
 */
final class RangeAudit {
  private final HoleCheck holes;
  private final KafkaTail tail;

  RangeAudit(RecordProbe probe) {
    this.holes = new HoleCheck(probe);
    this.tail = new KafkaTail(probe);
  }

  /** What the audit of one TP found. */
  record Result(
      List<TpReport.Range> ranges,
      List<Finding> findings,
      TpReport.Kafka kafka,
      int holesWithoutRecords) {}

  /**
   * Audits one TP.
   *
   * @param kafka what Kafka holds of it; null for sync logs and topics Kafka does not have
   * @param group the connector group's committed offset, or null
   */
  Result audit(TpLake lake, KafkaTp kafka, Long group) {
    UnitRanges.Layout layout = UnitRanges.of(lake);
    List<Finding> findings = new ArrayList<>(layout.findings());
    int empty = 0;
    if (lake.isSync()) {
      layout.holes().forEach(hole -> findings.add(RangeFindings.syncGap(hole)));
    } else if (kafka == null) {
      findings.add(RangeFindings.topicMissing(lake, layout.holes().size()));
    } else {
      TopicPartition tp = new TopicPartition(lake.topic(), lake.partition());
      for (OffsetHole hole : layout.holes()) {
        empty += holes.check(tp, kafka, hole, findings) ? 1 : 0;
      }
    }
    if (lake.pending() != null) {
      findings.add(RangeFindings.pending(lake.pending()));
    }
    if (!lake.missingEntries().isEmpty()) {
      findings.add(RangeFindings.logEntriesMissing(lake));
    }
    TpReport.Kafka kafkaReport = kafka == null ? null : tail.check(lake, kafka, group, findings);
    return new Result(layout.ranges(), findings, kafkaReport, empty);
  }
}
