package io.skippr.connect.iceberg;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;

/**
 * The changes the writer's threads hand over, taken in batches by the registration thread: a batch
 * gathers what arrives within the commit interval, so that it becomes one commit per table. A
 * change that replaced files ends the wait (the current snapshot should stop naming them soon), and
 * so does a stop.
 */
final class ChangeQueue {

  /** Wakes a waiting {@link #take} on stop; a reconcile of no files changes nothing. */
  private static final Change WAKE =
      new Change.Reconcile(new TopicPartition("", -1), 0, -1, List.of());

  private final LinkedBlockingQueue<Change> queue = new LinkedBlockingQueue<>();
  private final Object wake = new Object();
  private volatile boolean stopping;
  private volatile boolean urgent;

  /** Queues a change for the next batch. */
  void add(Change change) {
    queue.add(change);
  }

  /** Queues a change and ends the current batch's wait: it is registered now. */
  void addNow(Change change) {
    queue.add(change);
    urgent = true;
    wakeUp();
  }

  /** Ends every wait; from now on {@link #take} gathers nothing. */
  void stop() {
    stopping = true;
    wakeUp();
    queue.add(WAKE);
  }

  boolean stopping() {
    return stopping;
  }

  /** Whether nothing is queued. */
  boolean isEmpty() {
    queue.remove(WAKE);
    return queue.isEmpty();
  }

  /**
   * The next batch: waits up to {@code waitMs} for a first change; given one, and unless stopping,
   * gathers what arrives within {@code gatherMs} more. Empty when nothing came.
   */
  List<Change> take(long waitMs, long gatherMs) throws InterruptedException {
    Change first = queue.poll(waitMs, TimeUnit.MILLISECONDS);
    if (first != null && !stopping && gatherMs > 0) {
      gather(gatherMs);
    }
    List<Change> batch = new ArrayList<>();
    if (first != null) {
      batch.add(first);
    }
    urgent = false;
    queue.drainTo(batch);
    batch.removeIf(change -> change == WAKE);
    return batch;
  }

  private void gather(long ms) throws InterruptedException {
    long deadline = System.nanoTime() + ms * 1_000_000L;
    synchronized (wake) {
      long left;
      while (!stopping && !urgent && (left = deadline - System.nanoTime()) > 0) {
        wake.wait(Math.max(1, left / 1_000_000L));
      }
    }
  }

  private void wakeUp() {
    synchronized (wake) {
      wake.notifyAll();
    }
  }
}
