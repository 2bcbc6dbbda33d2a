package io.skippr.connect.state.dynamodb;

import io.skippr.connect.state.api.StateStoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Retries throttling, 5xx and network failures with exponential backoff and full jitter, a bounded
 * number of times, then fails with a message that says what was tried. Everything else (conditional
 * check failures, validation errors) is thrown at once.
 */
final class Retrier {
  static final int DEFAULT_ATTEMPTS = 8;
  private static final Set<String> THROTTLING =
      Set.of(
          "ProvisionedThroughputExceededException",
          "RequestLimitExceeded",
          "ThrottlingException",
          "Throttling",
          "TooManyRequestsException");

  /** Waits between attempts; tests pass one that records instead of sleeping. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  private final int maxAttempts;
  private final Duration base;
  private final Duration cap;
  private final Sleeper sleeper;
  private final DoubleSupplier random;

  Retrier(int maxAttempts, Duration base, Duration cap, Sleeper sleeper, DoubleSupplier random) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("at least one attempt");
    }
    this.maxAttempts = maxAttempts;
    this.base = base;
    this.cap = cap;
    this.sleeper = sleeper;
    this.random = random;
  }

  static Retrier standard() {
    return new Retrier(
        DEFAULT_ATTEMPTS,
        Duration.ofMillis(50),
        Duration.ofSeconds(5),
        d -> Thread.sleep(d.toMillis()),
        () -> ThreadLocalRandom.current().nextDouble());
  }

  /** Runs {@code call}, retrying transient failures; {@code what} names it in the final error. */
  <T> T call(String what, Supplier<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (SdkException e) {
        if (!retryable(e)) {
          throw e;
        }
        if (attempt >= maxAttempts) {
          throw new StateStoreException(
              what + " failed after " + attempt + " attempts (" + reason(e) + "); giving up", e);
        }
        pause(backoff(attempt));
      }
    }
  }

  /** Full jitter: a random delay between 0 and min(cap, base * 2^(attempt-1)). */
  Duration backoff(int attempt) {
    long ceiling = base.toMillis() << Math.min(attempt - 1, 20);
    return Duration.ofMillis((long) (random.getAsDouble() * Math.min(cap.toMillis(), ceiling)));
  }

  static boolean retryable(SdkException e) {
    if (e instanceof AwsServiceException service) {
      return service.isThrottlingException()
          || service.statusCode() >= 500
          || (service.awsErrorDetails() != null
              && THROTTLING.contains(service.awsErrorDetails().errorCode()));
    }
    return e instanceof SdkClientException
        && (e.getCause() instanceof IOException || e.getCause() instanceof UncheckedIOException);
  }

  private static String reason(SdkException e) {
    if (e instanceof AwsServiceException service) {
      String code = service.awsErrorDetails() == null ? "" : service.awsErrorDetails().errorCode();
      return "HTTP " + service.statusCode() + (code == null || code.isEmpty() ? "" : " " + code);
    }
    return String.valueOf(e.getCause());
  }

  private void pause(Duration delay) {
    try {
      sleeper.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StateStoreException("interrupted while backing off from DynamoDB", e);
    }
  }
}
