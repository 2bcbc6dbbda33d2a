package io.skippr.connect.iceberg;

import io.skippr.connect.common.MdcThreadFactory;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that registers: it takes a batch from the queue every {@code intervalMs} (sooner for
 * an urgent change), registers it with what is pending, and on stop registers what is queued within
 * a bound.
 */
final class RegistrationThread {
  private static final Logger LOG = LoggerFactory.getLogger(RegistrationThread.class);

  private final ChangeQueue queue;
  private final PendingChanges pending;
  private final long intervalMs;
  private final Thread thread;
  private volatile long stopDeadline;

  /**
   * @param name names the thread (the task)
   */
  RegistrationThread(ChangeQueue queue, PendingChanges pending, long intervalMs, String name) {
    this.queue = queue;
    this.pending = pending;
    this.intervalMs = intervalMs;
    this.thread = new MdcThreadFactory("iceberg-registrar-" + name).newThread(this::run);
  }

  void start() {
    thread.start();
  }

  /** Registers what is queued within {@code boundMs}, then stops; a thread not started stops. */
  void stop(long boundMs) throws InterruptedException {
    stopDeadline = System.currentTimeMillis() + boundMs;
    queue.stop();
    if (!thread.isAlive()) {
      return;
    }
    thread.join(boundMs + intervalMs);
    if (thread.isAlive()) {
      LOG.warn("Iceberg registration did not finish in time; the TPs' next owner registers it");
      thread.interrupt();
      thread.join(5_000);
    }
  }

  private void run() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        List<Change> batch = queue.take(intervalMs + pending.backoffMs(), intervalMs);
        if (batch.isEmpty() && !queue.stopping() && pending.isEmpty()) {
          continue;
        }
        pending.register(batch);
        if (queue.stopping() && (drained() || System.currentTimeMillis() > stopDeadline)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException | LinkageError e) {
        LOG.error("Iceberg registration failed; trying again", e);
        pending.failed();
      }
    }
  }

  private boolean drained() {
    return pending.isEmpty() && queue.isEmpty();
  }
}
