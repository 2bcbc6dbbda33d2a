package io.skippr.connect.source.http.delivery;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One request's way through Connect. The request is done when Kafka acknowledged every one of its
 * records — accepted rows and the rejection records alike, so a client told about a rejection can
 * find it on the rejection topic — and, when the task writes in transactions, the transaction that
 * holds them has committed. Every record holds admission room until it is acknowledged or dropped.
 * An abandoned ticket (timeout, shutdown) is answered at once and its records that have not reached
 * Connect yet are dropped.
 */
public final class WriteTicket {

  private final boolean awaitsCommit;
  private final long receivedNanos = System.nanoTime();
  private final AtomicInteger outstanding = new AtomicInteger();
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private volatile boolean abandoned;
  private Runnable onSettled = () -> {};

  /**
   * @param awaitsCommit true when the records are written in transactions the task commits: then
   *     acknowledgements alone do not finish the request, {@link #committed()} does
   */
  public WriteTicket(boolean awaitsCommit) {
    this.awaitsCommit = awaitsCommit;
  }

  /** A ticket finished by acknowledgements alone (tests, tools). */
  public WriteTicket() {
    this(false);
  }

  /**
   * Sets the count before any record is handed over.
   *
   * @param records accepted rows and rejection records
   * @param settled run once when every record is acknowledged or dropped
   */
  public void arm(int records, Runnable settled) {
    this.onSettled = settled;
    outstanding.set(records);
    if (records == 0) {
      settled.run();
      if (!awaitsCommit) {
        done.complete(null);
      }
    }
  }

  /** Kafka acknowledged (or an SMT filtered) one record of this ticket. */
  public void acknowledged() {
    if (settleOne() && !awaitsCommit) {
      done.complete(null);
    }
  }

  /** One record of this ticket was dropped before it reached Connect. */
  public void dropped() {
    settleOne();
  }

  /** True once every record is acknowledged (and none was dropped). */
  public boolean acknowledgedAll() {
    return outstanding.get() <= 0 && !abandoned;
  }

  /** The transaction holding every record of this ticket committed (transactional tasks). */
  public void committed() {
    done.complete(null);
  }

  /**
   * Completes normally when the request's rows are durable; exceptionally when it was abandoned
   * first.
   */
  public CompletableFuture<Void> done() {
    return done;
  }

  /** Gives up on this request: its queued records are dropped and its answer is sent. */
  public void abandon() {
    abandoned = true;
    done.completeExceptionally(new IllegalStateException("abandoned"));
  }

  public boolean abandoned() {
    return abandoned;
  }

  /** When the request arrived ({@link System#nanoTime()}). */
  public long receivedNanos() {
    return receivedNanos;
  }

  /** True for the record that settled the last one. */
  private boolean settleOne() {
    if (outstanding.decrementAndGet() == 0) {
      onSettled.run();
      return true;
    }
    return false;
  }
}
