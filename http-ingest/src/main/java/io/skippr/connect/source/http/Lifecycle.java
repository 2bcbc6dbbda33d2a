package io.skippr.connect.source.http;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The task's phases, one way only: STARTING → ACCEPTING → (FAILED →) STOPPING → STOPPED. Writes are
 * accepted, and {@code /health} answers ready, only while ACCEPTING. FAILED means the endpoint can
 * no longer serve (its server stopped under it, a request thread died): {@code poll()} then fails
 * the task with the reason, so Connect reports it FAILED, and Connect's {@code stop()} follows.
 */
final class Lifecycle {

  enum Phase {
    STARTING,
    ACCEPTING,
    FAILED,
    STOPPING,
    STOPPED
  }

  private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.STARTING);
  private final AtomicReference<String> failure = new AtomicReference<>();

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

  /** ACCEPTING → FAILED with the reason; false in any other phase (a stop is no failure). */
  boolean fail(String reason) {
    failure.compareAndSet(null, reason);
    return phase.compareAndSet(Phase.ACCEPTING, Phase.FAILED);
  }

  /** True once the endpoint failed, until it stops. */
  boolean failed() {
    return phase.get() == Phase.FAILED;
  }

  /** Why the endpoint failed (the first reason given), or null. */
  String failure() {
    return failure.get();
  }

  /** Any phase before STOPPING → STOPPING; false when already stopping or stopped. */
  boolean stop() {
    Phase current = phase.get();
    while (current == Phase.STARTING || current == Phase.ACCEPTING || current == Phase.FAILED) {
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
