package io.skippr.connect.lake.maintenance;

import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.RowColumns;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.log.FencedException;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import io.skippr.connect.lake.partition.PathTimes;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance of a task's TPs, off the write path: every {@code compaction.interval.ms} a
 * thread of its own merges small files and deletes retired ones, for the TPs the task has open now.
 * A TP it loses meanwhile fences its appends; the next owner abandons a merge left half done.
 */
public final class LakeMaintenance implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LakeMaintenance.class);

  private final Compactor compactor;
  private final Supplier<Map<TopicPartition, TpLog>> logs;
  private final LongSupplier clock;
  private final ScheduledExecutorService thread;
  private final long intervalMs;
  private volatile BooleanSupplier yieldTo = () -> false;
  private final MaintenanceCounts counts;

  private LakeMaintenance(
      Compactor compactor,
      MaintenanceCounts counts,
      Supplier<Map<TopicPartition, TpLog>> logs,
      LongSupplier clock,
      long intervalMs,
      String name) {
    this.compactor = compactor;
    this.counts = counts;
    this.logs = logs;
    this.clock = clock;
    this.intervalMs = intervalMs;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            new MdcThreadFactory("skippr-lake-maintenance-" + name));
  }

  /**
   * The maintenance of the TPs {@code logs} names at each pass, not started yet. It deletes retired
   * files whatever the settings; merges only with {@code compaction.enabled}.
   *
   * @param storage the lake (shared with the writer)
   * @param name names the thread (the task)
   */
  public static LakeMaintenance create(
      Settings settings,
      LakeStorage storage,
      Supplier<Map<TopicPartition, TpLog>> logs,
      LongSupplier clock,
      String name) {
    LakeLayout layout = new LakeLayout();
    String extension = new ParquetFileWriter(settings.format()).extension();
    boolean byKey = settings.policy().policy() == WritePolicyConfig.Policy.MERGE_BY_KEY;
    WritePolicyConfig.Settings policy = settings.policy();
    if (byKey && policy.keyFields().isEmpty()) {
      policy = new WritePolicyConfig.Settings(policy.policy(), List.of(RowColumns.KEY));
    }
    MaintenanceCounts counts = new MaintenanceCounts();
    Compactor compactor =
        new Compactor(
            storage,
            new MergePlanner(layout, settings.compaction(), extension, byKey),
            new ParquetMerger(settings.format()),
            new Expirer(layout, settings.retention(), settings.times()),
            settings.compaction(),
            policy,
            counts);
    return new LakeMaintenance(
        compactor, counts, logs, clock, settings.compaction().intervalMs(), name);
  }

  /**
   * What the maintenance of a connector's tables does.
   *
   * @param compaction when and how small files are merged
   * @param policy how rows are kept (merge by key changes what a merge writes)
   * @param retention how long time-partitioned paths are kept
   * @param times the time ranges of the partitioner's paths, or null when it is not a time one
   * @param format the files' codec and row groups
   */
  public record Settings(
      CompactionConfig.Settings compaction,
      WritePolicyConfig.Settings policy,
      RetentionConfig.Settings retention,
      PathTimes times,
      FormatConfig format) {}

  /** Maintains only the tables {@code filter} accepts (skippr compact --table). */
  public LakeMaintenance onlyTables(Predicate<String> filter) {
    compactor.onlyTables(filter);
    return this;
  }

  /**
   * Tells {@code listener} (the writer's: an Iceberg registrar) of every merge ({@code replaced})
   * and expiry ({@code expired}) right after its log entry, as the writer tells it of commits.
   */
  public LakeMaintenance telling(CommitListener listener) {
    compactor.tell(listener);
    return this;
  }

  /**
   * Publishes what maintenance does as the task's metrics (merges committed and abandoned, files
   * and bytes merged, files expired and deleted, retired files waiting out the grace).
   */
  public LakeMaintenance reportingTo(LakeSinkMetrics metrics) {
    counts.publish(metrics);
    return this;
  }

  /** Skips passes while {@code heldElsewhere} says another maintainer (skippr compact) works. */
  public LakeMaintenance yieldingTo(BooleanSupplier heldElsewhere) {
    this.yieldTo = heldElsewhere;
    return this;
  }

  /** Runs a pass every {@code compaction.interval.ms} on the maintenance thread. */
  public LakeMaintenance start() {
    thread.scheduleWithFixedDelay(this::pass, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * One pass over the open TPs, on the calling thread: merges what is due and deletes retired files
   * past their grace. A storage failure while appending leaves the TP's log unusable, so the writer
   * fails and its task restarts, as after a failed commit; a merge committed whose files could not
   * be moved is placed again at the next pass (or by the TP's next owner).
   */
  public void pass() {
    if (yieldTo.getAsBoolean()) {
      LOG.debug("Skipping a maintenance pass: skippr compact holds the lake");
      return;
    }
    Map<TopicPartition, TpLog> open = logs.get();
    compactor.retainOnly(open.values());
    for (Map.Entry<TopicPartition, TpLog> tp : open.entrySet()) {
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
      try {
        Compactor.Pass pass = compactor.run(tp.getValue(), clock.getAsLong());
        if (pass.filesExpired() > 0) {
          LOG.info("Expired {} file(s) of {} past retention", pass.filesExpired(), tp.getKey());
        }
        if (pass.merges() > 0) {
          LOG.info(
              "Merged {} file(s) of {} into {}; deleted {} retired file(s)",
              pass.filesMerged(),
              tp.getKey(),
              pass.merges(),
              pass.filesDeleted());
        }
      } catch (FencedException e) {
        LOG.debug("Maintenance of {} stops: {}", tp.getKey(), e.getMessage());
      } catch (IOException | RuntimeException e) {
        if (Thread.currentThread().isInterrupted()) {
          return; // stopping with the task: recovery abandons what this pass left open
        }
        counts.failed();
        LOG.warn("Maintenance of {} failed this pass: {}", tp.getKey(), e.toString());
      }
    }
  }

  /** Merges committed so far. */
  public long merges() {
    return counts.mergesCommitted();
  }

  /** Files merged away by committed merges so far. */
  public long filesMerged() {
    return counts.inputFiles();
  }

  /** Retired files deleted so far. */
  public long filesDeleted() {
    return counts.filesDeleted();
  }

  /** Passes of a TP that failed so far. */
  public long failures() {
    return counts.failures();
  }

  /** Files expired by retention so far. */
  public long filesExpired() {
    return counts.filesExpired();
  }

  /** Stops the thread, waiting for a pass under way (a merge is abandoned if interrupted). */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("Lake maintenance did not stop within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
