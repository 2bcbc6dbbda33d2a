package io.skippr.connect.it;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A condition for {@code Await} that is costly to check (downloading a lake): it is evaluated at
 * most once per period, and reports false in between without waiting.
 */
final class Throttled implements BooleanSupplier {
  private final long periodNanos;
  private final BooleanSupplier condition;
  private long last = Long.MIN_VALUE;

  Throttled(Duration period, BooleanSupplier condition) {
    this.periodNanos = period.toNanos();
    this.condition = condition;
  }

  @Override
  public boolean getAsBoolean() {
    long now = System.nanoTime();
    if (last != Long.MIN_VALUE && now - last < periodNanos) {
      return false;
    }
    last = now;
    return condition.getAsBoolean();
  }
}
