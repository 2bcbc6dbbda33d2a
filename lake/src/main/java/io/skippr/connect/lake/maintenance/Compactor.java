package io.skippr.connect.lake.maintenance;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.lake.convert.ParquetSchemas;
import io.skippr.connect.lake.log.CommittedFiles;
import io.skippr.connect.lake.log.FencedException;
import io.skippr.connect.lake.log.FilePlacement;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.FilesExpired;
import io.skippr.connect.lake.publish.FilesReplaced;
import io.skippr.connect.lake.storage.HashingStream;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.PendingObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance of one TP, through its log: deletes retired files that are due ({@code purge}),
 * expires partition paths past retention, and merges small files like a unit: a {@code
 * compact-intent} names the inputs and the output, the output is written staged (out of every
 * glob's reach), a {@code compact-commit} makes it live and retires the inputs, then the inputs
 * leave their table and the output enters it ({@link FilePlacement}); the inputs are deleted after
 * {@code compaction.grace.ms}. The output's name derives from the inputs' ids, so a merge planned
 * again after a crash writes the same file; a merge whose writer died is abandoned when the TP is
 * opened next, and one that committed is placed then. Readers of the log see every row once at
 * every step, readers that glob a table at most once.
 */
final class Compactor {
  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  private final LakeStorage storage;
  private final MergePlanner planner;
  private final ParquetMerger merger;
  private final Expirer expirer;
  private final CompactionConfig.Settings settings;
  private final WritePolicyConfig.Settings policy;
  private final MaintenanceCounts counts;
  private final LakeLayout layout = new LakeLayout();
  private volatile Predicate<String> tables = table -> true;
  private volatile CommitListener listener = CommitListener.NONE;

  /** Merges committed whose files could not be placed yet, by log: placed again first. */
  private final Map<TpLog, List<Placement>> unplaced = new HashMap<>();

  /** Maintains only the tables {@code filter} accepts. */
  void onlyTables(Predicate<String> filter) {
    this.tables = filter;
  }

  /** Tells {@code listener} of each merge and expiry right after its log entry. */
  void tell(CommitListener listener) {
    this.listener = listener;
  }

  /** What one pass did, for its log line (the totals are counted in {@link MaintenanceCounts}). */
  record Pass(int merges, int filesMerged, int filesDeleted, int filesExpired) {
    static final Pass NOTHING = new Pass(0, 0, 0, 0);
  }

  Compactor(
      LakeStorage storage,
      MergePlanner planner,
      ParquetMerger merger,
      Expirer expirer,
      CompactionConfig.Settings settings,
      WritePolicyConfig.Settings policy,
      MaintenanceCounts counts) {
    this.storage = storage;
    this.planner = planner;
    this.merger = merger;
    this.expirer = expirer;
    this.settings = settings;
    this.policy = policy;
    this.counts = counts;
  }

  /**
   * Deletes the TP's retired files that are due, expires what retention says, then merges what the
   * planner finds (when compaction is enabled).
   *
   * @throws FencedException when a newer writer claimed the TP (the pass stops)
   */
  Pass run(TpLog log, long nowMs) throws IOException {
    TpLog.Snapshot snapshot = log.snapshot();
    if (snapshot.compacting() != null) {
      counts.retired(log, snapshot.retired().size());
      return Pass.NOTHING; // a merge of an earlier writer, abandoned when the TP is opened
    }
    placeAgain(log);
    int deleted = purge(log, snapshot.retired(), nowMs);
    List<String> expired = expirer.expired(ofTables(snapshot.live()), nowMs);
    if (!expired.isEmpty()) {
      long seq = log.append(new LogEntry.Expire(log.epoch(), nowMs, expired, "past retention.ms"));
      counts.expired(expired.size());
      publishExpired(log, seq, snapshot.live(), expired);
      deleted += purge(log, log.snapshot().retired(), nowMs);
    }
    int merges = 0;
    int merged = 0;
    if (settings.enabled()) {
      for (MergePlan plan :
          planner.plan(log.topic(), log.partition(), ofTables(log.snapshot().live()))) {
        if (merge(log, plan, nowMs)) {
          merges++;
          merged += plan.inputs().size();
        }
      }
    }
    counts.retired(log, log.snapshot().retired().size());
    return new Pass(merges, merged, deleted, expired.size());
  }

  private Map<String, LiveFile> ofTables(Map<String, LiveFile> live) {
    Map<String, LiveFile> kept = new HashMap<>();
    live.forEach(
        (key, file) -> {
          if (tables.test(layout.tableOf(key))) {
            kept.put(key, file);
          }
        });
    return kept;
  }

  /** Forgets the placements of logs no longer maintained here (their next owner places them). */
  synchronized void retainOnly(Collection<TpLog> open) {
    unplaced.keySet().retainAll(open);
    counts.retainOnly(open);
  }

  /**
   * Places what earlier passes committed but could not place.
   *
   * @throws IOException when it still cannot: the pass stops before it merges more
   */
  private void placeAgain(TpLog log) throws IOException {
    List<Placement> left;
    synchronized (this) {
      left = unplaced.remove(log);
    }
    for (int i = 0; left != null && i < left.size(); i++) {
      try {
        left.get(i).run();
      } catch (IOException | RuntimeException e) {
        synchronized (this) {
          unplaced.put(log, new ArrayList<>(left.subList(i, left.size())));
        }
        throw e;
      }
    }
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
    due.sort(null);
    log.placement().delete(due);
    log.append(new LogEntry.Purge(log.epoch(), due));
    counts.deleted(due.size());
    return due.size();
  }

  private boolean merge(TpLog log, MergePlan plan, long nowMs) throws IOException {
    LogEntry.CompactIntent intent =
        new LogEntry.CompactIntent(
            plan.id(),
            log.epoch(),
            nowMs,
            plan.inputKeys(),
            List.of(plan.output()),
            policy.policy().configName());
    log.append(intent);
    LiveFile output;
    try {
      output = write(plan);
    } catch (IOException | RuntimeException e) {
      if (Thread.currentThread().isInterrupted()) {
        // The task is stopping: its log is closing too. Recovery abandons the open intent.
        LOG.info(
            "Merge {} of {} stopped with the task; its inputs stay live", plan.id(), log.topic());
        return false;
      }
      LOG.warn(
          "Merge {} of {} failed: {}; its inputs stay live", plan.id(), log.topic(), e.toString());
      log.abandon(intent, "the merge failed: " + e.getMessage());
      counts.abandoned();
      return false;
    }
    LogEntry.CompactCommit commit =
        new LogEntry.CompactCommit(
            plan.id(),
            log.epoch(),
            nowMs,
            plan.inputKeys(),
            List.of(output),
            nowMs + settings.graceMs());
    // A replace_partition unit may have retired an input meanwhile: then the merge is void.
    long seq =
        log.appendDecided(
            state -> state.liveFiles().keySet().containsAll(plan.inputKeys()) ? commit : null);
    if (seq < 0) {
      log.abandon(intent, "an input was retired before the merge committed");
      counts.abandoned();
      return false;
    }
    counts.committed(plan.inputs(), output);
    Placement placement =
        new Placement(
            log.placement(),
            plan.inputKeys(),
            List.of(output.key()),
            () -> publishReplaced(log, seq, plan, output));
    try {
      placement.run();
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        unplaced.computeIfAbsent(log, l -> new ArrayList<>()).add(placement);
      }
      throw e;
    }
    LOG.debug("Merged {} file(s) into {}", plan.inputs().size(), plan.output());
    return true;
  }

  /**
   * The moves after a merge's commit (inputs out of their table, the output in), then telling the
   * listener, which reads the table's files as they are now.
   */
  private record Placement(
      FilePlacement files, List<String> retired, List<String> staged, Runnable then) {
    void run() throws IOException {
      files.place(retired, staged);
      then.run();
    }
  }

  /** Tells the listener; the lake's entry is appended, so its failure is only logged. */
  private void publishReplaced(TpLog log, long seq, MergePlan plan, LiveFile output) {
    try {
      listener.replaced(
          new FilesReplaced(
              new TopicPartition(log.topic(), log.partition()),
              plan.id(),
              plan.inputs(),
              List.of(output),
              log.epoch(),
              seq,
              policy.policy() == WritePolicyConfig.Policy.MERGE_BY_KEY));
    } catch (RuntimeException e) {
      LOG.warn("Could not publish merge {}: {}", plan.id(), e.toString());
    }
  }

  private void publishExpired(
      TpLog log, long seq, Map<String, LiveFile> live, List<String> expired) {
    List<LiveFile> files = new ArrayList<>();
    expired.forEach(key -> files.add(live.get(key)));
    // The expire entry's place in the TP's log names it: the same expiry is never logged twice.
    String id = "expire+" + log.topic() + "+" + log.partition() + "+" + seq;
    try {
      listener.expired(
          new FilesExpired(
              new TopicPartition(log.topic(), log.partition()), id, files, log.epoch(), seq));
    } catch (RuntimeException e) {
      LOG.warn("Could not publish expiry {}: {}", id, e.toString());
    }
  }

  private LiveFile write(MergePlan plan) throws IOException {
    List<ParquetMerger.Input> inputs = new ArrayList<>();
    Long newest = null;
    for (LiveFile file : plan.inputs()) {
      inputs.add(() -> CommittedFiles.read(storage, file));
      Long at = file.committedAtMs();
      newest = at == null ? newest : newest == null ? at : Math.max(newest, at);
    }
    boolean byKey = policy.policy() == WritePolicyConfig.Policy.MERGE_BY_KEY;
    ParquetMerger.Merged merged;
    HashingStream out;
    try (PendingObject object = storage.create(layout.stagedKey(plan.output()))) {
      out = new HashingStream(object.stream(), Sha256.newDigest());
      merged =
          byKey
              ? merger.mergeByKey(inputs, out, policy.keyFields(), plan.keepsDeletes())
              : merger.merge(inputs, out);
      out.flush();
      if (!byKey && merged.rows() != plan.inputRows()) {
        object.abort();
        throw new IOException(
            "the inputs held " + merged.rows() + " rows, the log says " + plan.inputRows());
      }
      object.complete();
    }
    return new LiveFile(
        plan.output(),
        merged.rows(),
        out.count(),
        out.hex(),
        ParquetSchemas.fingerprint(merged.schema()),
        newest);
  }
}
