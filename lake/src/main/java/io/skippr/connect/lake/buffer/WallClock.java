package io.skippr.connect.lake.buffer;

/** The wall clock, behind an interface so that wall-clock rotation is testable without sleeping. */
@FunctionalInterface
public interface WallClock {
  WallClock SYSTEM = System::currentTimeMillis;

  /** Milliseconds since the epoch. */
  long millis();
}
