package io.skippr.connect.cli.discover;

/** A problem the user can fix, reported as one line and a non-zero exit code. */
public final class DiscoveryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DiscoveryException(String message) {
    super(message);
  }

  public DiscoveryException(String message, Throwable cause) {
    super(message, cause);
  }
}
