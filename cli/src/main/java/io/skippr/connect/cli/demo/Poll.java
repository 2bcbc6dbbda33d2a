package io.skippr.connect.cli.demo;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds, the deadline passes or a stop is requested. */
final class Poll {
  private static final Duration INTERVAL = Duration.ofMillis(250);

  /** One check; may throw {@link DemoException} to give up at once. */
  @FunctionalInterface
  interface Check {
    boolean holds() throws Exception;
  }

  private final BooleanSupplier stopping;

  Poll(BooleanSupplier stopping) {
    this.stopping = stopping;
  }

  /**
   * Waits for {@code check}; a check that throws anything but a {@link DemoException} counts as
   * "not yet" and its error is reported if the deadline passes.
   */
  void until(Duration timeout, String what, Check check) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    while (true) {
      if (stopping.getAsBoolean()) {
        throw DemoException.stopRequested();
      }
      try {
        if (check.holds()) {
          return;
        }
        last = null;
      } catch (DemoException e) {
        throw e;
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() > deadline) {
        throw new DemoException(
            "timed out after "
                + timeout.toSeconds()
                + " s waiting for "
                + what
                + (last == null ? "" : " (last error: " + last.getMessage() + ")"),
            last);
      }
      pause();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(INTERVAL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw DemoException.stopRequested();
    }
  }
}
