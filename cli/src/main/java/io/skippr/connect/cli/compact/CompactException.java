package io.skippr.connect.cli.compact;

/** A reason {@code skippr compact} does not run, told in one line. */
final class CompactException extends RuntimeException {
  CompactException(String message) {
    super(message);
  }
}
