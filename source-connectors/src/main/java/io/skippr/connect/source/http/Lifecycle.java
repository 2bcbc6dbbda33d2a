package io.skippr.connect.source.http;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The task's phases, one way only: STARTING → ACCEPTING → STOPPING → STOPPED. Writes are accepted,
 * and {@code /health} answers ready, only while ACCEPTING.
 */
final class Lifecycle {

  enum Phase {
    STARTING,
    ACCEPTING,
    STOPPING,
    STOPPED
  }

  private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.STARTING);

  Phase phase() {
    return phase.get();
  }

  boolean accepting() {
    return phase.get() == Phase.ACCEPTING;
  }

  /** STARTING → ACCEPTING; false when a stop came first. */
  boolean accept() {
    return phase.compareAndSet(Phase.STARTING, Phase.ACCEPTING);
  }

  /** Any phase before STOPPING → STOPPING; false when already stopping or stopped. */
  boolean stop() {
    Phase current = phase.get();
    while (current == Phase.STARTING || current == Phase.ACCEPTING) {
      if (phase.compareAndSet(current, Phase.STOPPING)) {
        return true;
      }
      current = phase.get();
    }
    return false;
  }

  void stopped() {
    phase.set(Phase.STOPPED);
  }
}
