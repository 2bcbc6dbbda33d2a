package io.skippr.connect.source.poll.http;

/**
 * At most {@code perSecond} request starts per second: each start reserves the next slot, {@code
 * 1/perSecond} seconds after the previous one. Times are {@link System#nanoTime()} values.
 */
public final class RateLimiter {

  private final long intervalNanos;
  private long nextSlot = Long.MIN_VALUE;

  /** {@code perSecond} of 0 means no limit. */
  public RateLimiter(double perSecond) {
    this.intervalNanos = perSecond <= 0 ? 0 : Math.round(1e9 / perSecond);
  }

  /** When the next request may start (never earlier than {@code now}). */
  public long nextStart(long now) {
    return intervalNanos == 0 || nextSlot == Long.MIN_VALUE || nextSlot - now <= 0 ? now : nextSlot;
  }

  /** Records a request start at {@code now}. */
  public void started(long now) {
    if (intervalNanos > 0) {
      nextSlot = now + intervalNanos;
    }
  }
}
