package io.skippr.connect.source.http.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The bounded queue between the HTTP threads and {@code SourceTask.poll()}. Records of abandoned
 * requests are dropped here rather than sent, so a 503 leaves as little behind as possible.
 */
public final class RecordHandoff {

  private final BlockingQueue<TrackedRecord> queue;
  private volatile boolean closed;

  public RecordHandoff(int capacity) {
    this.queue = new ArrayBlockingQueue<>(capacity);
  }

  /**
   * Enqueues a request's records in order, waiting for room until the deadline. When they do not
   * all fit in time, the ticket is abandoned and false is returned.
   */
  public boolean offer(List<TrackedRecord> records, WriteTicket ticket, long deadlineNanos)
      throws InterruptedException {
    for (int i = 0; i < records.size(); i++) {
      long wait = deadlineNanos - System.nanoTime();
      if (closed || !queue.offer(records.get(i), Math.max(0, wait), TimeUnit.NANOSECONDS)) {
        ticket.abandon();
        for (int k = i; k < records.size(); k++) {
          ticket.dropped();
        }
        return false;
      }
    }
    if (closed) {
      ticket.abandon();
    }
    return true;
  }

  /**
   * Takes up to {@code max} records, waiting up to {@code waitMs} for the first; null when none
   * (which Connect accepts from poll).
   */
  public List<SourceRecord> drain(int max, long waitMs) throws InterruptedException {
    TrackedRecord first = queue.poll(waitMs, TimeUnit.MILLISECONDS);
    if (first == null) {
      return null;
    }
    List<TrackedRecord> taken = new ArrayList<>(Math.min(max, queue.size() + 1));
    taken.add(first);
    queue.drainTo(taken, max - 1);
    List<SourceRecord> out = new ArrayList<>(taken.size());
    for (TrackedRecord r : taken) {
      if (r.ticket().abandoned()) {
        r.ticket().dropped();
      } else {
        out.add(r);
      }
    }
    return out.isEmpty() ? null : out;
  }

  /** Stops accepting records and drops those still queued, abandoning their requests. */
  public void close() {
    closed = true;
    List<TrackedRecord> left = new ArrayList<>();
    queue.drainTo(left);
    for (TrackedRecord r : left) {
      r.ticket().abandon();
      r.ticket().dropped();
    }
  }

  public int size() {
    return queue.size();
  }
}
