package io.skippr.connect.sink.maintenance;

import io.skippr.connect.sink.convert.FormatConfig;
import io.skippr.connect.sink.format.ParquetFileWriter;
import io.skippr.connect.sink.log.FencedException;
import io.skippr.connect.sink.log.LakeLayout;
import io.skippr.connect.sink.log.TpLog;
import io.skippr.connect.sink.storage.LakeStorage;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

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
  private final AtomicLong merges = new AtomicLong();
  private final AtomicLong filesMerged = new AtomicLong();
  private final AtomicLong filesDeleted = new AtomicLong();

  private LakeMaintenance(
      Compactor compactor,
      Supplier<Map<TopicPartition, TpLog>> logs,
      LongSupplier clock,
      long intervalMs,
      String name) {
    this.compactor = compactor;
    this.logs = logs;
    this.clock = clock;
    this.intervalMs = intervalMs;
    Map<String, String> mdc = MDC.getCopyOfContextMap();
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread t =
                  new Thread(
                      () -> {
                        if (mdc != null) {
                          MDC.setContextMap(mdc);
                        }
                        task.run();
                      },
                      "skippr-lake-maintenance-" + name);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The maintenance of the TPs {@code logs} names at each pass, not started yet; null when
   * compaction is off.
   *
   * @param storage the lake (shared with the writer)
   * @param name names the thread (the task)
   */
  public static LakeMaintenance create(
      CompactionConfig.Settings settings,
      FormatConfig format,
      LakeStorage storage,
      Supplier<Map<TopicPartition, TpLog>> logs,
      LongSupplier clock,
      String name) {
    if (!settings.enabled()) {
      return null;
    }
    LakeLayout layout = new LakeLayout("");
    String extension = new ParquetFileWriter(format).extension();
    Compactor compactor =
        new Compactor(
            storage,
            new MergePlanner(layout, settings, extension),
            new ParquetMerger(format),
            settings);
    return new LakeMaintenance(compactor, logs, clock, settings.intervalMs(), name);
  }

  /** Runs a pass every {@code compaction.interval.ms} on the maintenance thread. */
  public LakeMaintenance start() {
    thread.scheduleWithFixedDelay(this::pass, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * One pass over the open TPs, on the calling thread: merges what is due and deletes retired files
   * past their grace. A storage failure leaves the TP's log unusable, so the writer fails and its
   * task restarts, as after a failed commit.
   */
  public void pass() {
    for (Map.Entry<TopicPartition, TpLog> open : logs.get().entrySet()) {
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
      try {
        Compactor.Pass pass = compactor.run(open.getValue(), clock.getAsLong());
        merges.addAndGet(pass.merges());
        filesMerged.addAndGet(pass.filesMerged());
        filesDeleted.addAndGet(pass.filesDeleted());
        if (pass.merges() > 0) {
          LOG.info(
              "Merged {} file(s) of {} into {}; deleted {} retired file(s)",
              pass.filesMerged(),
              open.getKey(),
              pass.merges(),
              pass.filesDeleted());
        }
      } catch (FencedException e) {
        LOG.debug("Maintenance of {} stops: {}", open.getKey(), e.getMessage());
      } catch (IOException | RuntimeException e) {
        LOG.warn("Maintenance of {} failed this pass: {}", open.getKey(), e.toString());
      }
    }
  }

  /** Merges done so far. */
  public long merges() {
    return merges.get();
  }

  /** Files merged away so far. */
  public long filesMerged() {
    return filesMerged.get();
  }

  /** Retired files deleted so far. */
  public long filesDeleted() {
    return filesDeleted.get();
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
