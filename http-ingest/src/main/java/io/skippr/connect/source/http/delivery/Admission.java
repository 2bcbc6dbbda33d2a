package io.skippr.connect.source.http.delivery;

/**
 * Bounds the rows and bytes received but not yet settled (acknowledged by Kafka or dropped), so a
 * producer faster than Kafka gets 429 instead of growing the task's memory.
 */
public final class Admission {

  private final long maxRows;
  private final long maxBytes;
  private long rows;
  private long bytes;

  public Admission(long maxRows, long maxBytes) {
    this.maxRows = maxRows;
    this.maxBytes = maxBytes;
  }

  /** Reserves room for a request, or returns false when it would exceed a limit. */
  public synchronized boolean tryAcquire(long requestRows, long requestBytes) {
    if (rows + requestRows > maxRows || bytes + requestBytes > maxBytes) {
      return false;
    }
    rows += requestRows;
    bytes += requestBytes;
    return true;
  }

  public synchronized void release(long requestRows, long requestBytes) {
    rows -= requestRows;
    bytes -= requestBytes;
  }

  /** True when no further request can be admitted; checked before a body is read. */
  public synchronized boolean saturated() {
    return rows >= maxRows || bytes >= maxBytes;
  }

  public synchronized long inflightRows() {
    return rows;
  }

  public synchronized long inflightBytes() {
    return bytes;
  }
}
