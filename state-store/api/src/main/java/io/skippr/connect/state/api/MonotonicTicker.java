package io.skippr.connect.state.api;

/** A monotonic clock in nanoseconds; only differences between readings mean anything. */
@FunctionalInterface
public interface MonotonicTicker {
  long nanos();

  static MonotonicTicker system() {
    return System::nanoTime;
  }
}
