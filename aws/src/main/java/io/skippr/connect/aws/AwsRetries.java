package io.skippr.connect.aws;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The one retry loop of every AWS request: transient failures (HTTP 5xx, throttling, request
 * timeouts, conflicting concurrent conditional writes, network errors) are tried again after a
 * backoff with full jitter ({@link RetryPolicy}); anything else fails the call at once. Each
 * attempt knows its number, so a caller can settle an ambiguous outcome (a request that took effect
 * although its answer was lost). Failures are {@link IOException}s whose message names the request
 * (never the credentials) and whose cause is the SDK's exception, by which callers tell
 * conditional-check failures and missing tables apart.
 */
public final class AwsRetries {
  private static final Logger LOG = LoggerFactory.getLogger(AwsRetries.class);
  private static final Set<String> TRANSIENT_CODES =
      Set.of(
          "RequestTimeout",
          "SlowDown",
          "Throttling",
          "ThrottlingException",
          "RequestLimitExceeded",
          "ProvisionedThroughputExceededException",
          "TooManyRequestsException",
          "InternalError",
          "ServiceUnavailable",
          "ConditionalRequestConflict");

  /** One attempt of a request; {@code attempt} counts from 1. */
  @FunctionalInterface
  public interface Request<T> {
    T run(int attempt) throws IOException;
  }

  /** Waits between attempts; tests pass one that records instead of sleeping. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  /** All attempts failed transiently; the cause is the last failure. */
  public static final class ExhaustedException extends IOException {
    private static final long serialVersionUID = 1L;

    ExhaustedException(String message, SdkException last) {
      super(message, last);
    }
  }

  /** What to add to the message of a request that failed for good, such as a likely cause. */
  @FunctionalInterface
  public interface Advice {
    /** Text appended to the message (starting with {@code "; "}), or empty. */
    String about(String what, SdkException failure);
  }

  private final RetryPolicy policy;
  private final Sleeper sleeper;
  private final DoubleSupplier random;
  private final Advice advice;

  public AwsRetries(RetryPolicy policy, Sleeper sleeper, DoubleSupplier random) {
    this(policy, sleeper, random, (what, failure) -> "");
  }

  private AwsRetries(RetryPolicy policy, Sleeper sleeper, DoubleSupplier random, Advice advice) {
    this.policy = policy;
    this.sleeper = sleeper;
    this.random = random;
    this.advice = advice;
  }

  public AwsRetries(RetryPolicy policy) {
    this(policy, Thread::sleep, () -> ThreadLocalRandom.current().nextDouble());
  }

  public RetryPolicy policy() {
    return policy;
  }

  /** A copy whose permanent failures carry {@code advice} in their messages. */
  public AwsRetries withAdvice(Advice advice) {
    return new AwsRetries(policy, sleeper, random, advice);
  }

  /**
   * Runs {@code request} until it succeeds, fails permanently or runs out of attempts.
   *
   * @param what the request and its object, for messages (e.g. {@code "PUT s3://b/k"})
   * @throws ExhaustedException when every attempt failed transiently
   * @throws IOException {@code what failed: …} with the SDK's exception as cause when it failed
   *     permanently, or whatever {@code request} threw
   */
  public <T> T call(String what, Request<T> request) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return request.run(attempt);
      } catch (SdkException e) {
        if (!isTransient(e)) {
          throw new IOException(what + " failed: " + describe(e) + advice.about(what, e), e);
        }
        if (attempt >= policy.maxAttempts()) {
          throw new ExhaustedException(
              what + " failed after " + attempt + " attempt(s); last: " + describe(e), e);
        }
        LOG.debug(
            "Retrying {} after {} (attempt {} of {})",
            what,
            describe(e),
            attempt,
            policy.maxAttempts());
        pause(what, attempt);
      }
    }
  }

  /** True for failures that another attempt may not meet. */
  public static boolean isTransient(SdkException e) {
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

  /** HTTP status and error code of a service error, or the cause of a client error. */
  public static String describe(SdkException e) {
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

  /** The wait before attempt {@code attempt + 1}: full jitter under the policy's ceiling. */
  long backoffMillis(int attempt) {
    return (long) (random.getAsDouble() * policy.ceilingAfter(attempt));
  }

  private void pause(String what, int attempt) throws InterruptedIOException {
    try {
      sleeper.sleep(backoffMillis(attempt));
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
