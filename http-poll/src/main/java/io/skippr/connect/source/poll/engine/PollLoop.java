package io.skippr.connect.source.poll.engine;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Serves a task's endpoints from one thread: each {@link #poll} steps the endpoint that has been
 * due the longest and returns its page, waiting (at most a second, and never past {@link #stop})
 * while none is due.
 */
public final class PollLoop {

  private static final long MAX_POLL_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final List<EndpointPoller> pollers;
  private final LongSupplier nanoClock;
  private final CountDownLatch stopped = new CountDownLatch(1);

  public PollLoop(List<EndpointPoller> pollers, LongSupplier nanoClock) {
    this.pollers = List.copyOf(pollers);
    this.nanoClock = nanoClock;
  }

  /** One page of records, or null when none came within about a second (or the task stops). */
  public List<SourceRecord> poll() throws InterruptedException {
    long deadline = nanoClock.getAsLong() + MAX_POLL_NANOS;
    while (stopped.getCount() > 0) {
      EndpointPoller next = mostOverdue();
      long now = nanoClock.getAsLong();
      long wait = next.dueAt() - now;
      if (wait > 0) {
        long left = deadline - now;
        if (left <= 0) {
          return null;
        }
        stopped.await(Math.min(wait, left), TimeUnit.NANOSECONDS);
        continue;
      }
      List<SourceRecord> records = next.step();
      if (!records.isEmpty()) {
        return records;
      }
      if (nanoClock.getAsLong() - deadline >= 0) {
        return null;
      }
    }
    return null;
  }

  /** Whether every endpoint ended a pass that read everything and waits for the next one. */
  public boolean caughtUp() {
    long now = nanoClock.getAsLong();
    for (EndpointPoller p : pollers) {
      if (p.phase() != EndpointPoller.Phase.PASS_DUE || p.dueAt() - now <= 0) {
        return false;
      }
    }
    return true;
  }

  /** Ends waits at once; {@link #poll} returns null from then on. */
  public void stop() {
    stopped.countDown();
  }

  public List<EndpointPoller> pollers() {
    return pollers;
  }

  private EndpointPoller mostOverdue() {
    EndpointPoller best = pollers.get(0);
    for (EndpointPoller p : pollers) {
      if (p.dueAt() - best.dueAt() < 0) {
        best = p;
      }
    }
    return best;
  }
}
