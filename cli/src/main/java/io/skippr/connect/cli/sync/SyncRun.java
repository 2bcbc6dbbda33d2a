package io.skippr.connect.cli.sync;

import io.skippr.connect.cli.discover.PluginJars;
import io.skippr.connect.common.Messages;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of a pipeline without Kafka: the source in Debezium's embedded engine ({@link
 * SyncEngine}), its records straight into the lake ({@link SyncLake}), source offsets into the
 * state store once their unit is committed. A record is acknowledged to the source only once its
 * unit is committed and its offset stored.
 *
 * <p>Phases: {@link Phase#STARTING} (open store and lake, take the {@link SyncLease}, reconcile the
 * store with the lake, open the logs), {@link Phase#RUNNING} (records flow; {@code --once} ends
 * when the source is caught up, else SIGTERM ends it), {@link Phase#DRAINING} (commit everything
 * buffered, then stop the source), then {@link Phase#COMPLETE} or {@link Phase#FAILED}.
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
  private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.STARTING);
  private final SyncFailure failure = new SyncFailure();
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private SyncLake lake;

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
      output.complete(lake.delivered(), lake.units(), reason);
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
    try (SyncState state = SyncState.open(pipeline, wait, output::waiting);
        SyncLease lease = SyncLease.take(state, pipeline, wait, output)) {
      SyncState.Resume resume = state.reconcile();
      try (URLClassLoader plugins = PluginJars.isolated(pluginDir, SyncRun.class.getClassLoader());
          SyncLake opened = new SyncLake(state, resume, failure, output)) {
        lake = opened;
        output.start(pipeline.sourceClass(), state.lake().location(), resume.next().size());
        String reason = flow(plugins, lease);
        lake.throwIfRejected();
        return reason;
      }
    }
  }

  /** Runs the source until the run ends, then drains: everything delivered is committed. */
  private String flow(ClassLoader plugins, SyncLease lease) throws InterruptedException {
    SyncConfig settings = pipeline.settings();
    CatchUp catchUp = new CatchUp(pipeline.connectorName(), settings.idle(), System::nanoTime);
    SyncDelivery delivery = new SyncDelivery(lake, catchUp, failure);
    SyncEngine engine = SyncEngine.start(pipeline, plugins, delivery);
    try (SyncTicker ticker = SyncTicker.start(lake::tick, TICK)) {
      phase.set(Phase.RUNNING);
      String reason = awaitEnd(lease, delivery, catchUp);
      ticker.close();
      phase.set(Phase.DRAINING);
      lake.drain(); // while the engine runs, so that it lets the tasks commit what the lake holds
      if (once) {
        lake.maintainNow(); // a scheduled run leaves its small files merged
      }
      if (!engine.stop(settings.shutdownTimeout())) {
        throw new SyncException(
            "the source did not stop within " + settings.shutdownTimeout().toMillis() + " ms");
      }
      return reason;
    } finally {
      engine.close();
    }
  }

  private String awaitEnd(SyncLease lease, SyncDelivery delivery, CatchUp catchUp)
      throws InterruptedException {
    while (true) {
      failure.throwIfFailed();
      lease.throwIfLost();
      if (stopRequested.await(WATCH_MS, TimeUnit.MILLISECONDS)) {
        return "stopped";
      }
      if (delivery.engineEnded()) {
        return "the source stopped";
      }
      if (once && catchUp.caughtUp()) {
        return catchUp.reason();
      }
    }
  }
}
