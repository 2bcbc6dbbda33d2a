package io.skippr.connect.cli.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The audit of one TP.
 *
 * @param source {@code kafka}, or {@code sync} for a source partition of {@code skippr sync}
 * @param status {@code clean}, {@code warning} or {@code problem}: the worst finding
 * @param generations the offset ranges the lake holds, per generation
 * @param lakeNext where the lake resumes the TP, null when its log does not say
 * @param kafka what Kafka holds, null for sync logs and topics Kafka does not have
 * @param groupOffset the connector group's committed offset, null when it has none
 * @param liveFiles how many files the log lists as live
 * @param retiredFiles how many files are no longer live (merge inputs, replaced or expired files)
 *     and not yet recorded as deleted: storage keeps them for the grace period
 * @param merges how many merges of the TP's files committed
 * @param holesWithoutRecords offsets ranges between units that Kafka showed hold no record
 *     (transaction markers, aborted or compacted records)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record TpReport(
    String topic,
    int partition,
    String source,
    Status status,
    List<Range> generations,
    Long lakeNext,
    Kafka kafka,
    Long groupOffset,
    int liveFiles,
    int retiredFiles,
    int merges,
    int holesWithoutRecords,
    List<Finding> findings) {

  TpReport {
    generations = List.copyOf(generations);
    findings = List.copyOf(findings);
  }

  /**
   * The units of one generation.
   *
   * @param start the first offset of its first unit, null when it has none
   * @param end the last offset of its last unit, null when it has none
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Range(long generation, Long start, Long end, int units, String reason) {}

  /**
   * Kafka's side.
   *
   * @param lag offsets from the first record the lake does not hold yet to {@code end}
   */
  record Kafka(long logStart, long end, long stableEnd, long lag) {}

  String name() {
    return topic + "-" + partition;
  }
}
