package io.skippr.connect.it.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How long a soak runs and how it is measured, from system properties ({@code
 * -Dsoak.duration=PT10M} and the like, ISO-8601 durations).
 *
 * @param duration how long the load runs ({@code soak.duration}, default two hours)
 * @param killEvery the worker is SIGKILLed this often ({@code soak.kill.every}, default a sixth of
 *     the duration but at least 150 s; {@code PT0S} never kills it)
 * @param warmup samples before this are not judged ({@code soak.warmup}, default a tenth of the
 *     duration but at least 2 minutes)
 * @param settle after a worker is ready, its samples are not judged for this long ({@code
 *     soak.settle}, default 60 s): it is starting its tasks, reopening partitions and catching up
 * @param sampleEvery how often the series are sampled ({@code soak.sample.every}, default a 240th
 *     of the duration, within 10 to 30 s)
 * @param keepData whether a passing run keeps its broker and lake data ({@code soak.keep}, default
 *     false; a failing run always keeps them)
 */
public record SoakSettings(
    Duration duration,
    Duration killEvery,
    Duration warmup,
    Duration settle,
    Duration sampleEvery,
    boolean keepData) {

  private static final Duration MIN_KILL_EVERY = Duration.ofSeconds(150);
  private static final Duration MIN_WARMUP = Duration.ofMinutes(2);
  private static final Duration MIN_SAMPLE_EVERY = Duration.ofSeconds(10);
  private static final Duration MAX_SAMPLE_EVERY = Duration.ofSeconds(30);

  /** The settings the system properties give, with the defaults above for the rest. */
  public static SoakSettings fromSystemProperties() {
    Duration duration = duration("soak.duration", Duration.ofHours(2));
    Duration killEvery = duration("soak.kill.every", max(duration.dividedBy(6), MIN_KILL_EVERY));
    Duration warmup = duration("soak.warmup", max(duration.dividedBy(10), MIN_WARMUP));
    Duration settle = duration("soak.settle", Duration.ofSeconds(60));
    Duration sample =
        duration(
            "soak.sample.every",
            min(max(duration.dividedBy(240), MIN_SAMPLE_EVERY), MAX_SAMPLE_EVERY));
    return new SoakSettings(
        duration, killEvery, warmup, settle, sample, Boolean.getBoolean("soak.keep"));
  }

  /**
   * When the worker is killed, from the start of the load: every {@link #killEvery}, but none in
   * the last half interval, so that the last samples come from a settled worker.
   */
  public List<Duration> killTimes() {
    List<Duration> times = new ArrayList<>();
    if (killEvery.isZero()) {
      return times;
    }
    Duration last = duration.minus(killEvery.dividedBy(2));
    for (Duration at = killEvery; at.compareTo(last) <= 0; at = at.plus(killEvery)) {
      times.add(at);
    }
    return times;
  }

  @Override
  public String toString() {
    return "duration "
        + duration
        + ", kill every "
        + (killEvery.isZero() ? "never" : killEvery)
        + ", warm-up "
        + warmup
        + ", settle "
        + settle
        + ", sample every "
        + sampleEvery;
  }

  private static Duration duration(String property, Duration fallback) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    Duration parsed = Duration.parse(value.trim());
    if (parsed.isNegative()) {
      throw new IllegalArgumentException(property + " must not be negative: " + value);
    }
    return parsed;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
