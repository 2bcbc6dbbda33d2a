package io.skippr.connect.cli.demo;

/** The demo cannot go on; the message is one line the user can act on. */
public final class DemoException extends RuntimeException {
  private final boolean stopRequested;

  DemoException(String message) {
    this(message, null, false);
  }

  DemoException(String message, Throwable cause) {
    this(message, cause, false);
  }

  private DemoException(String message, Throwable cause, boolean stopRequested) {
    super(message, cause);
    this.stopRequested = stopRequested;
  }

  /** The user asked the stack to stop while the demo was still running: not a failure. */
  static DemoException stopRequested() {
    return new DemoException("stop requested", null, true);
  }

  public boolean isStopRequested() {
    return stopRequested;
  }
}
