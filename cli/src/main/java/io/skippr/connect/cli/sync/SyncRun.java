package io.skippr.connect.cli.sync;

import io.skippr.connect.cli.discover.PluginJars;
import io.skippr.connect.cli.lease.HeldLease;
import io.skippr.connect.common.Messages;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.SinkProgress;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.state.StoreProgressMirror;
import io.skippr.connect.lake.write.LakeWriter;
import io.skippr.connect.lake.write.WriterParts;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * One run of a pipeline without Kafka: the source in Debezium's embedded engine, its records
 * straight into the lake writer, source offsets into the state store once their unit is committed.
 *
 * <p>Phases: {@link Phase#STARTING} (open store and lake, take the lease, reconcile the store with
 * the lake, open the logs), {@link Phase#RUNNING} (records flow; {@code --once} ends when the
 * source is caught up, else SIGTERM ends it), {@link Phase#DRAINING} (commit everything buffered,
 * then stop the source), then {@link Phase#COMPLETE} or {@link Phase#FAILED}. A record is
 * acknowledged to the source only once its unit is committed and its offset stored.
 */
final class SyncRun {
  /** The phases of a run. */
  enum Phase {
    STARTING,
    RUNNING,
    DRAINING,
    COMPLETE,
    FAILED
  }

  private static final Duration TICK = Duration.ofSeconds(1);
  private static final long WATCH_MS = 100;

  private final SyncPipeline pipeline;
  private final boolean once;
  private final boolean wait;
  private final Path pluginDir;
  private final SyncOutput output;

  /** Guards the writer: tasks deliver, the ticker ticks, the run drains. */
  private final Object lock = new Object();

  private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.STARTING);
  private final AtomicReference<String> failure = new AtomicReference<>();
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong units = new AtomicLong();
  private volatile boolean engineEnded;

  private LakeWriter writer;
  private LakeMaintenance maintenance;
  private SyncRecords records;
  private SyncRejections rejections;
  private CatchUp catchUp;

  SyncRun(SyncPipeline pipeline, boolean once, boolean wait, Path pluginDir, SyncOutput output) {
    this.pipeline = pipeline;
    this.once = once;
    this.wait = wait;
    this.pluginDir = pluginDir;
    this.output = output;
  }

  /** Runs to the end; 0 when everything the source gave is in the lake, else 1. */
  int run() {
    try {
      String reason = execute();
      phase.set(Phase.COMPLETE);
      output.complete(delivered.get(), units.get(), reason);
      return 0;
    } catch (SyncException e) {
      return failed(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failed("interrupted");
    } catch (IOException | RuntimeException e) {
      return failed(Messages.oneLine(e));
    } finally {
      finished.countDown();
    }
  }

  /** Asks a running run to stop cleanly (SIGTERM) and waits until it ended. */
  void stop(Duration timeout) throws InterruptedException {
    stopRequested.countDown();
    finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  Phase phase() {
    return phase.get();
  }

  private int failed(String reason) {
    phase.set(Phase.FAILED);
    output.failed(reason);
    return 1;
  }

  private String execute() throws InterruptedException, IOException {
    SyncConfig settings = pipeline.settings();
    try (SyncState state = SyncState.open(pipeline, wait, output::waiting);
        HeldLease lease =
            new HeldLease(
                state.store(),
                pipeline.scope(),
                "sync/" + pipeline.name(),
                "skippr sync",
                settings.lease())) {
      Optional<String> holder = lease.take(wait, output::waiting);
      if (holder.isPresent()) {
        throw new SyncException(
            "pipeline " + pipeline.name() + " is being run by " + holder.get() + " (--wait waits)");
      }
      SyncState.Resume resume = state.reconcile();
      records = new SyncRecords(pipeline.logTopic(), state.partitions(), this::opened);
      resume.next().forEach(records::continueAt);
      rejections = new SyncRejections(state.lake(), pipeline.name(), records);
      Map<String, String> lakeProps = pipeline.lakeProps();
      ProgressMirror progress =
          StoreProgressMirror.open(lakeProps, state.lakeConfig().mirrorMode());
      try (URLClassLoader plugins =
          PluginJars.isolated(pluginDir, SyncRun.class.getClassLoader())) {
        writer =
            new LakeWriter(
                state.lakeConfig().writerSettings(state.lakeConfig().ownerName()),
                WriterParts.of(
                    state.lakeConfig(),
                    state.lake(),
                    new SyncOffsets(progress, records, state.offsets(), this::committed),
                    records),
                new SyncTaskContext(lakeProps, this::rejected));
        writer.open(resume.next().keySet().stream().map(records::tp).toList());
        maintenance =
            LakeMaintenance.create(
                    state.lakeConfig().maintenance(),
                    state.lake(),
                    writer::openLogs,
                    System::currentTimeMillis,
                    "sync-" + pipeline.name())
                .telling(writer.listener())
                .start();
        output.start(pipeline.sourceClass(), state.lake().location(), resume.next().size());
        catchUp = new CatchUp(pipeline.connectorName(), settings.idle(), System::nanoTime);
        String reason = flow(plugins, lease, settings);
        if (rejections.count() > 0) {
          throw new SyncException(
              rejections.count()
                  + " record(s) rejected by the lake, kept in "
                  + rejections.location());
        }
        return reason;
      } finally {
        if (maintenance != null) {
          maintenance.close();
        }
        if (writer != null) {
          synchronized (lock) {
            writer.stop();
          }
        }
        if (progress instanceof AutoCloseable closeable) {
          closeQuietly(closeable);
        }
      }
    }
  }

  /** Runs the source until the run ends, then drains: everything delivered is committed. */
  private String flow(ClassLoader plugins, HeldLease lease, SyncConfig settings)
      throws InterruptedException {
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "skippr-sync-tick");
              thread.setDaemon(true);
              return thread;
            });
    SyncEngine engine = SyncEngine.start(pipeline, plugins, new Delivery());
    try {
      phase.set(Phase.RUNNING);
      ticker.scheduleWithFixedDelay(
          this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
      String reason = awaitEnd(lease);
      ticker.shutdownNow();
      synchronized (lock) {
        // After any put in progress; what the tasks deliver from now on is read again next run.
        phase.set(Phase.DRAINING);
        throwIfFailed();
        // While the engine runs, so that it lets the tasks commit what the lake now holds.
        writer.flushAll();
      }
      if (once) {
        maintenance.pass(); // a scheduled run leaves its small files merged
      }
      if (!engine.stop(settings.shutdownTimeout())) {
        throw new SyncException(
            "the source did not stop within " + settings.shutdownTimeout().toMillis() + " ms");
      }
      return reason;
    } finally {
      ticker.shutdownNow();
      engine.close();
    }
  }

  private String awaitEnd(HeldLease lease) throws InterruptedException {
    while (true) {
      throwIfFailed();
      if (lease.lost()) {
        throw new SyncException(
            "the lease of pipeline " + pipeline.name() + " was taken by another run");
      }
      if (stopRequested.await(WATCH_MS, TimeUnit.MILLISECONDS)) {
        return "stopped";
      }
      if (engineEnded) {
        return "the source stopped";
      }
      if (once && catchUp.caughtUp()) {
        return catchUp.reason();
      }
    }
  }

  private void throwIfFailed() {
    String reason = failure.get();
    if (reason != null) {
      throw new SyncException(reason);
    }
  }

  private void fail(String reason) {
    failure.compareAndSet(null, reason);
  }

  /** Lets clock triggers cut units while the source is quiet, and surfaces commit failures. */
  private void tick() {
    try {
      synchronized (lock) {
        if (phase.get() == Phase.RUNNING && failure.get() == null) {
          writer.put(List.of());
        }
      }
    } catch (RuntimeException e) {
      fail("the lake writer failed: " + Messages.oneLine(e));
    }
  }

  /** A source partition seen for the first time: its TP log is opened before its first record. */
  private void opened(int partition) {
    writer.open(List.of(records.tp(partition)));
  }

  private void committed(SinkProgress unit, LogEntry.SourcePosition position) {
    units.incrementAndGet();
    output.unitCommitted(
        unit.compactionId(),
        unit.endOffset(),
        position == null ? Map.of() : position.offset(),
        delivered.get());
  }

  private void rejected(SinkRecord record, Throwable error) {
    output.rejected(rejections.keep(record, error), Messages.oneLine(error));
  }

  /** What the engine's tasks hand the run. */
  private final class Delivery implements SyncEngine.Handler {
    @Override
    public void deliver(List<SourceRecord> batch, List<SourceAck> acks) {
      if (batch.isEmpty()) {
        return;
      }
      catchUp.delivering();
      try {
        synchronized (lock) {
          if (phase.get() != Phase.RUNNING) {
            return; // draining: the next run reads these again (their offsets were not written)
          }
          throwIfFailed();
          long now = System.currentTimeMillis();
          List<SinkRecord> sink = new ArrayList<>(batch.size());
          for (int i = 0; i < batch.size(); i++) {
            sink.add(records.toSink(batch.get(i), now, acks.get(i)));
          }
          delivered.addAndGet(batch.size());
          writer.put(sink);
        }
      } catch (RuntimeException e) {
        fail(
            e instanceof SyncException
                ? e.getMessage()
                : "the lake writer failed: " + Messages.oneLine(e));
        throw e;
      } finally {
        catchUp.delivered();
      }
    }

    @Override
    public void taskStarted() {
      catchUp.taskStarted();
    }

    @Override
    public void stopped(boolean success, String message, Throwable error) {
      if (!success && phase.get() != Phase.DRAINING) {
        fail("the source failed: " + (error != null ? Messages.oneLine(error) : message));
      }
      engineEnded = true;
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // Closing the progress mirror's handle; the store itself is closed with the run's state.
    }
  }
}
