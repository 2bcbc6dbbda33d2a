package io.skippr.connect.source.poll.http;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter: attempt n (1 = the first retry) waits a random 50-100% of {@code
 * min(max, base * 2^(n-1))}, so retrying tasks spread out.
 */
public final class Backoff {

  private final long baseMs;
  private final long maxMs;
  private final DoubleSupplier random;

  public Backoff(long baseMs, long maxMs, DoubleSupplier random) {
    this.baseMs = baseMs;
    this.maxMs = Math.max(baseMs, maxMs);
    this.random = random;
  }

  public Duration delay(int retry) {
    int shift = Math.min(Math.max(retry, 1) - 1, 40);
    double full = Math.min((double) maxMs, baseMs * Math.pow(2, shift));
    return Duration.ofMillis(Math.round(full * (0.5 + 0.5 * random.getAsDouble())));
  }
}
