package io.skippr.connect.source.http.delivery;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the Kafka acknowledgements of one request. Its accepted rows ("data") decide the response;
 * every record, rejections included, holds admission room until it is acknowledged or dropped. An
 * abandoned ticket (timeout, shutdown) makes the task drop its records that have not reached
 * Connect yet.
 */
public final class WriteTicket {

  private final AtomicInteger dataPending = new AtomicInteger();
  private final AtomicInteger outstanding = new AtomicInteger();
  private final CompletableFuture<Void> dataAcked = new CompletableFuture<>();
  private volatile boolean abandoned;
  private Runnable onSettled = () -> {};

  /**
   * Sets the counts before any record is handed over.
   *
   * @param dataRecords accepted rows whose acknowledgement the response waits for
   * @param allRecords data and rejection records
   * @param settled run once when every record is acknowledged or dropped
   */
  public void arm(int dataRecords, int allRecords, Runnable settled) {
    this.onSettled = settled;
    dataPending.set(dataRecords);
    outstanding.set(allRecords);
    if (dataRecords == 0) {
      dataAcked.complete(null);
    }
    if (allRecords == 0) {
      settled.run();
    }
  }

  /** Kafka acknowledged (or an SMT filtered) one record of this ticket. */
  public void acknowledged(boolean data) {
    if (data && dataPending.decrementAndGet() == 0) {
      dataAcked.complete(null);
    }
    settleOne();
  }

  /** One record of this ticket was dropped before it reached Connect. */
  public void dropped() {
    settleOne();
  }

  /** Waits until every data record is acknowledged; false on timeout or abandonment. */
  public boolean awaitData(long timeoutMs) throws InterruptedException {
    try {
      dataAcked.get(timeoutMs, TimeUnit.MILLISECONDS);
      return !abandoned || dataPending.get() == 0;
    } catch (TimeoutException | ExecutionException e) {
      return false;
    }
  }

  /** Gives up on this request: its queued records are dropped and waiting stops. */
  public void abandon() {
    abandoned = true;
    dataAcked.completeExceptionally(new IllegalStateException("abandoned"));
  }

  public boolean abandoned() {
    return abandoned;
  }

  private void settleOne() {
    if (outstanding.decrementAndGet() == 0) {
      onSettled.run();
    }
  }
}
