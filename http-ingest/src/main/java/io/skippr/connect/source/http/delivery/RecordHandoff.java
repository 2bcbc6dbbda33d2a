package io.skippr.connect.source.http.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The bounded queue between the request threads and {@code SourceTask.poll()}. It holds whole
 * requests: one poll returns whole requests only, so a request's records never straddle two
 * transactions. Records of abandoned requests are dropped here rather than sent.
 */
public final class RecordHandoff {

  /** What one poll took: the records and the requests they belong to. */
  public record Drained(List<SourceRecord> records, List<WriteTicket> tickets) {}

  private record Request(WriteTicket ticket, List<TrackedRecord> records) {}

  private final long capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final ArrayDeque<Request> queue = new ArrayDeque<>();
  private long queuedRecords;
  private boolean closed;

  /**
   * @param capacity most records queued at once (admission keeps requests within it)
   */
  public RecordHandoff(long capacity) {
    this.capacity = capacity;
  }

  /**
   * Enqueues a request's records without waiting.
   *
   * @return false (and the ticket abandoned) when the queue is closed or has no room
   */
  public boolean offer(List<TrackedRecord> records, WriteTicket ticket) {
    lock.lock();
    try {
      if (closed || queuedRecords + records.size() > capacity) {
        ticket.abandon();
        records.forEach(r -> ticket.dropped());
        return false;
      }
      queue.add(new Request(ticket, records));
      queuedRecords += records.size();
      notEmpty.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes whole requests, at least one and no more than {@code max} records unless the first
   * request alone has more, waiting up to {@code waitMs} for the first; null when none.
   */
  public Drained drain(int max, long waitMs) throws InterruptedException {
    List<Request> taken = new ArrayList<>();
    lock.lock();
    try {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
      while (queue.isEmpty() && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        notEmpty.awaitNanos(left);
      }
      int count = 0;
      while (!queue.isEmpty()
          && (taken.isEmpty() || count + queue.peek().records().size() <= max)) {
        Request request = queue.poll();
        queuedRecords -= request.records().size();
        count += request.records().size();
        taken.add(request);
      }
    } finally {
      lock.unlock();
    }
    List<SourceRecord> records = new ArrayList<>();
    List<WriteTicket> tickets = new ArrayList<>(taken.size());
    for (Request request : taken) {
      if (request.ticket().abandoned()) {
        request.records().forEach(r -> request.ticket().dropped());
      } else {
        records.addAll(request.records());
        tickets.add(request.ticket());
      }
    }
    return records.isEmpty() ? null : new Drained(records, tickets);
  }

  /** Stops accepting records and drops those still queued, abandoning their requests. */
  public void close() {
    List<Request> left;
    lock.lock();
    try {
      closed = true;
      left = new ArrayList<>(queue);
      queue.clear();
      queuedRecords = 0;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
    for (Request request : left) {
      request.ticket().abandon();
      request.records().forEach(r -> request.ticket().dropped());
    }
  }

  /** Records queued now. */
  public long size() {
    lock.lock();
    try {
      return queuedRecords;
    } finally {
      lock.unlock();
    }
  }
}
