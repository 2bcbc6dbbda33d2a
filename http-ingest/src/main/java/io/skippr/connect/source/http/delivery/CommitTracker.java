package io.skippr.connect.source.http.delivery;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * For tasks that write in transactions: the requests polled but not yet known committed. Connect
 * calls {@code SourceTask.commit()} after each transaction commit; every request polled before it
 * whose records Kafka has all acknowledged is then durable for read_committed readers and may be
 * answered. A request with rows still unacknowledged (its batch was cut by a pause) waits for the
 * next commit.
 */
public final class CommitTracker {

  private final List<WriteTicket> uncommitted = new ArrayList<>();

  /** The requests of a batch poll() returned. */
  public synchronized void polled(List<WriteTicket> tickets) {
    uncommitted.addAll(tickets);
  }

  /** A transaction committed: finishes the requests it made durable. */
  public synchronized void committed() {
    Iterator<WriteTicket> it = uncommitted.iterator();
    while (it.hasNext()) {
      WriteTicket ticket = it.next();
      if (ticket.abandoned()) {
        it.remove();
      } else if (ticket.acknowledgedAll()) {
        ticket.committed();
        it.remove();
      }
    }
  }

  /** Requests waiting for a commit. */
  public synchronized int pending() {
    return uncommitted.size();
  }
}
