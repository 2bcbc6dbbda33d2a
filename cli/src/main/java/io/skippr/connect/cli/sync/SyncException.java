package io.skippr.connect.cli.sync;

/**
 * A problem a run without Kafka reports in one line: bad configuration, a held lease, a failure.
 */
final class SyncException extends RuntimeException {
  SyncException(String message) {
    super(message);
  }

  SyncException(String message, Throwable cause) {
    super(message, cause);
  }
}
