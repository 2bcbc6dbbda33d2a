package io.skippr.connect.source.http.delivery;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One request's way through Connect. Its accepted rows ("data") decide the answer: the request is
 * done when Kafka acknowledged every one of them and — when the task writes in transactions — the
 * transaction that holds them has committed. Every record, rejections included, holds admission
 * room until it is acknowledged or dropped. An abandoned ticket (timeout, shutdown) is answered at
 * once and its records that have not reached Connect yet are dropped.
 */
public final class WriteTicket {

  private final boolean awaitsCommit;
  private final long receivedNanos = System.nanoTime();
  private final AtomicInteger dataPending = new AtomicInteger();
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
   * Sets the counts before any record is handed over.
   *
   * @param dataRecords accepted rows whose acknowledgement the answer waits for
   * @param allRecords data and rejection records
   * @param settled run once when every record is acknowledged or dropped
   */
  public void arm(int dataRecords, int allRecords, Runnable settled) {
    this.onSettled = settled;
    dataPending.set(dataRecords);
    outstanding.set(allRecords);
    if (dataRecords == 0 && !awaitsCommit) {
      done.complete(null);
    }
    if (allRecords == 0) {
      settled.run();
    }
  }

  /** Kafka acknowledged (or an SMT filtered) one record of this ticket. */
  public void acknowledged(boolean data) {
    if (data && dataPending.decrementAndGet() == 0 && !awaitsCommit) {
      done.complete(null);
    }
    settleOne();
  }

  /** One record of this ticket was dropped before it reached Connect. */
  public void dropped() {
    settleOne();
  }

  /** True once every data record is acknowledged. */
  public boolean dataAcknowledged() {
    return dataPending.get() <= 0;
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

  private void settleOne() {
    if (outstanding.decrementAndGet() == 0) {
      onSettled.run();
    }
  }
}
