package io.skippr.connect.sink.storage;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Runs S3 requests, retrying transient failures (HTTP 5xx, throttling, request timeouts,
 * conflicting concurrent conditional writes, network errors) with exponential backoff and full
 * jitter. What is left is thrown as an {@link IOException} naming the request, never the
 * credentials. The SDK's own retries are off so that the number of attempts and the handling of
 * ambiguous outcomes (a request that took effect although its response was lost) are decided here.
 */
final class S3Retries {
  private static final Logger LOG = LoggerFactory.getLogger(S3Retries.class);
  private static final long MAX_BACKOFF_MS = 20_000;
  private static final Set<String> TRANSIENT_CODES =
      Set.of(
          "RequestTimeout",
          "SlowDown",
          "Throttling",
          "ThrottlingException",
          "RequestLimitExceeded",
          "InternalError",
          "ServiceUnavailable",
          "ConditionalRequestConflict");

  /** One attempt of a request; {@code attempt} counts from 1. */
  @FunctionalInterface
  interface Request<T> {
    T run(int attempt) throws IOException;
  }

  /** Waits between attempts; tests may pass one that does not sleep. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  private final int maxAttempts;
  private final long backoffMs;
  private final Sleeper sleeper;

  S3Retries(int maxAttempts, long backoffMs, Sleeper sleeper) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("at least one attempt");
    }
    this.maxAttempts = maxAttempts;
    this.backoffMs = backoffMs;
    this.sleeper = sleeper;
  }

  S3Retries(int maxAttempts, long backoffMs) {
    this(maxAttempts, backoffMs, Thread::sleep);
  }

  int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Runs {@code request} until it succeeds, fails permanently or runs out of attempts.
   *
   * @param what the request and its object, for messages (e.g. {@code "PUT s3://b/k"})
   */
  <T> T call(String what, Request<T> request) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return request.run(attempt);
      } catch (SdkException e) {
        if (!isTransient(e)) {
          throw new IOException(what + " failed: " + describe(e), e);
        }
        if (attempt >= maxAttempts) {
          throw new IOException(
              what + " failed after " + attempt + " attempt(s); last: " + describe(e), e);
        }
        LOG.debug(
            "Retrying {} after {} (attempt {} of {})", what, describe(e), attempt, maxAttempts);
        pause(what, attempt);
      }
    }
  }

  /** True for failures that another attempt may not meet. */
  static boolean isTransient(SdkException e) {
    if (e instanceof AwsServiceException service) {
      String code =
          service.awsErrorDetails() == null ? null : service.awsErrorDetails().errorCode();
      return service.statusCode() >= 500
          || service.isThrottlingException()
          || (code != null && TRANSIENT_CODES.contains(code));
    }
    if (e instanceof ApiCallAttemptTimeoutException) {
      return true;
    }
    return e instanceof SdkClientException && causedByIo(e);
  }

  /** HTTP status and S3 error code of a service error, or the cause of a client error. */
  static String describe(SdkException e) {
    if (e instanceof AwsServiceException service) {
      StringBuilder out = new StringBuilder("HTTP ").append(service.statusCode());
      if (service.awsErrorDetails() != null) {
        if (service.awsErrorDetails().errorCode() != null) {
          out.append(' ').append(service.awsErrorDetails().errorCode());
        }
        if (service.awsErrorDetails().errorMessage() != null) {
          out.append(": ").append(service.awsErrorDetails().errorMessage());
        }
      }
      if (service.requestId() != null) {
        out.append(" (request id ").append(service.requestId()).append(')');
      }
      return out.toString();
    }
    Throwable cause = e.getCause();
    return cause == null ? e.getMessage() : e.getMessage() + " (" + cause + ")";
  }

  /** Full jitter: a random wait up to min(cap, base * 2^(attempt-1)). */
  long backoffMillis(int attempt, double random) {
    long ceiling = backoffMs << Math.min(attempt - 1, 20);
    return (long) (random * Math.min(MAX_BACKOFF_MS, ceiling));
  }

  private void pause(String what, int attempt) throws InterruptedIOException {
    try {
      sleeper.sleep(backoffMillis(attempt, ThreadLocalRandom.current().nextDouble()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException("interrupted while retrying " + what);
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  private static boolean causedByIo(Throwable e) {
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      if (t instanceof IOException || t instanceof UncheckedIOException) {
        return true;
      }
    }
    return false;
  }
}
