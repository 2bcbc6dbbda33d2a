package io.skippr.connect.cli.sync;

import io.skippr.connect.common.MdcThreadFactory;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the tick of a run on a thread of its own, so clock triggers cut while the source is quiet.
 */
final class SyncTicker implements AutoCloseable {
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(new MdcThreadFactory("skippr-sync-tick"));

  private SyncTicker() {}

  /** Runs {@code tick} every {@code period}, the first time one period from now. */
  static SyncTicker start(Runnable tick, Duration period) {
    SyncTicker ticker = new SyncTicker();
    ticker.thread.scheduleWithFixedDelay(
        tick, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return ticker;
  }

  /** Stops ticking; a tick under way finishes on its own. */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}
