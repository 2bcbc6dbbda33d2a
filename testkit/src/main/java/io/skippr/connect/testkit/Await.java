package io.skippr.connect.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits on a condition with a deadline instead of sleeping a fixed time. */
public final class Await {
  private static final long POLL_MILLIS = 100;

  private Await() {}

  /** Polls {@code condition} until it holds; fails with {@code what} and the last state after. */
  public static void until(Duration timeout, String what, BooleanSupplier condition) {
    until(timeout, () -> what, condition);
  }

  /** Like {@link #until(Duration, String, BooleanSupplier)} with a description built on failure. */
  public static void until(Duration timeout, Supplier<String> what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
        last = null;
      } catch (RuntimeException e) {
        last = e; // the system under test may not be ready yet: keep polling
      }
      pause();
    }
    AssertionError error =
        new AssertionError("timed out after " + timeout + " waiting for: " + what.get());
    if (last != null) {
      error.initCause(last);
    }
    throw error;
  }

  private static void pause() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting", e);
    }
  }
}
