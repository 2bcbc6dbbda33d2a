package io.skippr.connect.lake.maintenance;

import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What maintenance did so far, counted only once the log entry that does it is appended (durable):
 * a merge whose commit never reached the log is never counted as committed. Kept in atomics, so
 * metrics reporters read them from their own threads without touching the maintenance's state.
 */
final class MaintenanceCounts {
  private final AtomicLong mergesCommitted = new AtomicLong();
  private final AtomicLong inputFiles = new AtomicLong();
  private final AtomicLong outputFiles = new AtomicLong();
  private final AtomicLong inputBytes = new AtomicLong();
  private final AtomicLong outputBytes = new AtomicLong();
  private final AtomicLong mergesAbandoned = new AtomicLong();
  private final AtomicLong filesExpired = new AtomicLong();
  private final AtomicLong filesDeleted = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  /** Retired files waiting out {@code compaction.grace.ms}, per TP, as of its last pass. */
  private final Map<TpLog, Integer> retired = new ConcurrentHashMap<>();

  /** A merge's {@code compact-commit} is in the log. */
  void committed(List<LiveFile> inputs, LiveFile output) {
    mergesCommitted.incrementAndGet();
    inputFiles.addAndGet(inputs.size());
    outputFiles.incrementAndGet();
    inputBytes.addAndGet(inputs.stream().mapToLong(LiveFile::bytes).sum());
    outputBytes.addAndGet(output.bytes());
  }

  /** A merge's abandonment is in the log. */
  void abandoned() {
    mergesAbandoned.incrementAndGet();
  }

  /** An {@code expire} entry is in the log. */
  void expired(int files) {
    filesExpired.addAndGet(files);
  }

  /** A {@code purge} entry is in the log (its files deleted before it). */
  void deleted(int files) {
    filesDeleted.addAndGet(files);
  }

  /** A pass of a TP failed. */
  void failed() {
    failures.incrementAndGet();
  }

  /** The retired files of a TP after its pass. */
  void retired(TpLog log, int files) {
    retired.put(log, files);
  }

  /** Forgets the TPs no longer maintained here. */
  void retainOnly(Collection<TpLog> open) {
    retired.keySet().retainAll(open);
  }

  long mergesCommitted() {
    return mergesCommitted.get();
  }

  long inputFiles() {
    return inputFiles.get();
  }

  long filesExpired() {
    return filesExpired.get();
  }

  long filesDeleted() {
    return filesDeleted.get();
  }

  long failures() {
    return failures.get();
  }

  /** Publishes the counts as the task's metrics (names documented in the README's "Metrics"). */
  void publish(LakeSinkMetrics metrics) {
    metrics.count("merges-committed", "Merges committed by maintenance", mergesCommitted::get);
    metrics.count("merge-input-files", "Files merged away by committed merges", inputFiles::get);
    metrics.count("merge-output-files", "Files written by committed merges", outputFiles::get);
    metrics.count(
        "merge-input-bytes", "Bytes of the files merged away by committed merges", inputBytes::get);
    metrics.count(
        "merge-output-bytes", "Bytes of the files written by committed merges", outputBytes::get);
    metrics.count(
        "merges-abandoned",
        "Merges abandoned by maintenance (their inputs stay live)",
        mergesAbandoned::get);
    metrics.count("files-expired", "Files expired by retention", filesExpired::get);
    metrics.count(
        "retired-files-deleted",
        "Retired files deleted after compaction.grace.ms",
        filesDeleted::get);
    metrics.count(
        "maintenance-failures", "Maintenance passes of a partition that failed", failures::get);
    metrics.gauge(
        "retired-files",
        "Retired files waiting out compaction.grace.ms, as of each partition's last pass",
        () -> retired.values().stream().mapToLong(Integer::longValue).sum());
  }
}
