package io.skippr.connect.sink.maintenance;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.sink.log.FencedException;
import io.skippr.connect.sink.log.LiveFile;
import io.skippr.connect.sink.log.LogEntry;
import io.skippr.connect.sink.log.TpLog;
import io.skippr.connect.sink.storage.HashingStream;
import io.skippr.connect.sink.storage.LakeStorage;
import io.skippr.connect.sink.storage.PendingObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges one TP's small files through its log, like a unit: a {@code compact-intent} names the
 * inputs and the output, the output is written, a {@code compact-commit} makes it live and retires
 * the inputs, which are deleted (then a {@code purge}) once {@code compaction.grace.ms} passed. The
 * output's name derives from the inputs' ids, so a merge planned again after a crash writes the
 * same file; a merge whose writer died is abandoned when the TP is opened next. Readers of the log
 * see every row once at every step.
 */
final class Compactor {
  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  private final LakeStorage storage;
  private final MergePlanner planner;
  private final ParquetMerger merger;
  private final CompactionConfig.Settings settings;

  /** What one pass did, for metrics and logs. */
  record Pass(int merges, int filesMerged, int filesDeleted) {
    static final Pass NOTHING = new Pass(0, 0, 0);
  }

  Compactor(
      LakeStorage storage,
      MergePlanner planner,
      ParquetMerger merger,
      CompactionConfig.Settings settings) {
    this.storage = storage;
    this.planner = planner;
    this.merger = merger;
    this.settings = settings;
  }

  /**
   * Deletes the TP's retired files that are due, then merges what the planner finds.
   *
   * @throws FencedException when a newer writer claimed the TP (the pass stops)
   */
  Pass run(TpLog log, long nowMs) throws IOException {
    TpLog.Snapshot snapshot = log.snapshot();
    if (snapshot.compacting() != null) {
      return Pass.NOTHING; // a merge of an earlier writer, abandoned when the TP is opened
    }
    int deleted = purge(log, snapshot.retired(), nowMs);
    int merges = 0;
    int merged = 0;
    for (MergePlan plan : planner.plan(log.topic(), log.partition(), snapshot.live())) {
      merge(log, plan, nowMs);
      merges++;
      merged += plan.inputs().size();
    }
    return new Pass(merges, merged, deleted);
  }

  private int purge(TpLog log, Map<String, Long> retired, long nowMs) throws IOException {
    List<String> due = new ArrayList<>();
    retired.forEach(
        (key, deleteAfter) -> {
          if (deleteAfter <= nowMs) {
            due.add(key);
          }
        });
    if (due.isEmpty()) {
      return 0;
    }
    storage.deleteAll(due);
    log.append(new LogEntry.Purge(log.epoch(), due));
    return due.size();
  }

  private void merge(TpLog log, MergePlan plan, long nowMs) throws IOException {
    LogEntry.CompactIntent intent =
        new LogEntry.CompactIntent(
            plan.id(), log.epoch(), nowMs, plan.inputKeys(), List.of(plan.output()), "append");
    log.append(intent);
    LiveFile output;
    try {
      output = write(plan);
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "Merge {} of {} failed: {}; its inputs stay live", plan.id(), log.topic(), e.toString());
      log.abandon(intent, "the merge failed: " + e.getMessage());
      return;
    }
    log.append(
        new LogEntry.CompactCommit(
            plan.id(),
            log.epoch(),
            nowMs,
            plan.inputKeys(),
            List.of(output),
            nowMs + settings.graceMs()));
    LOG.debug("Merged {} file(s) into {}", plan.inputs().size(), plan.output());
  }

  private LiveFile write(MergePlan plan) throws IOException {
    List<ParquetMerger.Input> inputs = new ArrayList<>();
    for (LiveFile file : plan.inputs()) {
      inputs.add(() -> storage.read(file.key()));
    }
    long rows;
    HashingStream out;
    try (PendingObject object = storage.create(plan.output())) {
      out = new HashingStream(object.stream(), Sha256.newDigest());
      rows = merger.merge(inputs, out);
      out.flush();
      if (rows != plan.inputRows()) {
        object.abort();
        throw new IOException(
            "the inputs held " + rows + " rows, the log says " + plan.inputRows());
      }
      object.complete();
    }
    return new LiveFile(
        plan.output(), rows, out.count(), out.hex(), plan.inputs().get(0).schemaFingerprint());
  }
}
