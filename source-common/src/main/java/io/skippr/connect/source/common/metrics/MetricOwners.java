package io.skippr.connect.source.common.metrics;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which instance of each task publishes its metrics on this worker: the newest. Connect starts a
 * task again (a restart, a rebalance) after waiting {@code task.shutdown.graceful.timeout.ms} for
 * the previous instance, which may still be stopping and still hold the metric names. The new
 * instance then removes the previous one's metrics and publishes its own; the previous one, when it
 * finally stops, removes nothing. One lock orders publishing, removal and every change of an
 * owner's metrics.
 */
public final class MetricOwners {

  private static final Logger LOG = LoggerFactory.getLogger(MetricOwners.class);
  private static final Map<String, Owner> OWNERS = new HashMap<>();
  private static final AtomicLong INSTANCES = new AtomicLong();

  /**
   * The metrics of one task instance, published and removed as a whole: {@link #claim}ed when
   * built, and removed on {@link #close} unless a newer instance took them over.
   */
  public abstract static class Owner implements AutoCloseable {
    private final String task;
    private final long instance;

    /**
     * @param task the task, as its metric names tell it from other tasks on the worker
     * @param instance orders this worker's instances of the task (see {@link #nextInstance})
     */
    protected Owner(String task, long instance) {
      this.task = task;
      this.instance = instance;
    }

    public final String task() {
      return task;
    }

    public final long instance() {
      return instance;
    }

    /** Publishes these metrics unless a newer instance of the task publishes already. */
    protected final void claim() {
      MetricOwners.claim(this);
    }

    /** Registers the metrics; called under the owners' lock. */
    protected abstract void publish();

    /** Removes what {@link #publish} registered; called under the owners' lock. */
    protected abstract void unpublish();

    /** Removes this instance's metrics, unless a newer instance took them over. */
    @Override
    public void close() {
      MetricOwners.release(this);
    }
  }

  private MetricOwners() {}

  /**
   * A number for a task instance, higher than every earlier one's: taken when Connect creates the
   * instance, so that an older instance that gets to its metrics late is still older.
   */
  public static long nextInstance() {
    return INSTANCES.incrementAndGet();
  }

  /** Publishes {@code candidate} unless a newer instance of its task publishes already. */
  private static synchronized void claim(Owner candidate) {
    Owner owner = OWNERS.get(candidate.task());
    if (owner != null && owner.instance() > candidate.instance()) {
      LOG.info(
          "Task {}: a newer instance of this task runs on this worker; this one's metrics are not"
              + " published",
          candidate.task());
      return;
    }
    if (owner != null) {
      LOG.info(
          "Task {}: the previous instance of this task has not stopped yet; its metrics make way"
              + " for this one's",
          candidate.task());
      owner.unpublish();
    }
    OWNERS.put(candidate.task(), candidate);
    try {
      candidate.publish();
    } catch (RuntimeException e) {
      LOG.warn("Task {}: metrics not published: {}", candidate.task(), e.toString());
    }
  }

  /** Runs a change of an owner's metrics (a gauge added) never amid a publish or a removal. */
  public static synchronized void change(Runnable change) {
    change.run();
  }

  /** Removes the metrics of {@code owner} if it is its task's owner. */
  private static synchronized void release(Owner owner) {
    if (OWNERS.remove(owner.task(), owner)) {
      owner.unpublish();
    }
  }
}
