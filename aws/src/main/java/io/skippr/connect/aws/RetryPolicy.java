package io.skippr.connect.aws;

/**
 * How often and how patiently a request that failed transiently is tried again: before attempt n
 * the caller waits a random time up to {@code min(maxBackoffMs, baseBackoffMs * 2^(n-2))} (full
 * jitter).
 *
 * @param maxAttempts attempts in all, at least 1
 */
public record RetryPolicy(int maxAttempts, long baseBackoffMs, long maxBackoffMs) {
  /** The policy of requests whose settings say nothing else. */
  public static final RetryPolicy STANDARD = new RetryPolicy(8, 50, 5_000);

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("at least one attempt");
    }
    if (baseBackoffMs < 0 || maxBackoffMs < 0) {
      throw new IllegalArgumentException("backoff must not be negative");
    }
  }

  /** The longest wait before attempt {@code attempt + 1}, before jitter. */
  long ceilingAfter(int attempt) {
    return Math.min(maxBackoffMs, baseBackoffMs << Math.min(attempt - 1, 20));
  }
}
