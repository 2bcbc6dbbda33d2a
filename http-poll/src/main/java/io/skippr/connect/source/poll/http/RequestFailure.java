package io.skippr.connect.source.poll.http;

import java.time.Duration;
import java.util.Optional;

/**
 * A request that did not yield a usable page. The kind says what to do: retry later, fetch a new
 * access token and retry once, or fail the task. Messages carry the redacted URL and never a
 * secret.
 */
public final class RequestFailure extends Exception {
  private static final long serialVersionUID = 1L;

  /** What the failure calls for. */
  public enum Kind {
    /** 408, 425, 429, 5xx, I/O errors and timeouts: retry with backoff. */
    TRANSIENT,
    /** 401: a new access token may help, once. */
    UNAUTHORIZED,
    /** Other 4xx, bodies that are not what the config says: fail the task. */
    PERMANENT,
    /** Not a failure: something shared is busy (another task renews the token); ask again soon. */
    BUSY
  }

  private final Kind kind;
  private final int status;
  private final transient Duration retryAfter;

  public RequestFailure(Kind kind, int status, Duration retryAfter, String message) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.retryAfter = retryAfter;
  }

  public static RequestFailure permanent(int status, String message) {
    return new RequestFailure(Kind.PERMANENT, status, null, message);
  }

  /** Try again after {@code wait}; not counted as a failed attempt. */
  public static RequestFailure busy(Duration wait, String message) {
    return new RequestFailure(Kind.BUSY, 0, wait, message);
  }

  public static RequestFailure transientFailure(int status, String message) {
    return new RequestFailure(Kind.TRANSIENT, status, null, message);
  }

  /** The kind for an HTTP status that is not 2xx. */
  public static Kind kindOf(int status) {
    if (status == 401) {
      return Kind.UNAUTHORIZED;
    }
    if (status == 408 || status == 425 || status == 429 || status >= 500) {
      return Kind.TRANSIENT;
    }
    return Kind.PERMANENT;
  }

  public Kind kind() {
    return kind;
  }

  /** The HTTP status, or 0 for an I/O error. */
  public int status() {
    return status;
  }

  /** What the server's Retry-After asked for. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
