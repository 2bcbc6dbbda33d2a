package io.skippr.connect.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's verdict on synthetic series: what passes as flat and what does not. */
class FlatnessTest {
  /** 60 minutes, warm-up 6, settle 1, a sample every 10 s. */
  private static final SoakSettings SETTINGS =
      new SoakSettings(
          Duration.ofMinutes(60),
          Duration.ofMinutes(20),
          Duration.ofMinutes(6),
          Duration.ofMinutes(1),
          Duration.ofSeconds(10),
          false);

  private static final Flatness.Tolerance TEN_PERCENT = new Flatness.Tolerance(0.10, 0);

  @TempDir Path dir;

  @Test
  void aNoisyButLevelSeriesIsFlat() throws Exception {
    Samples samples = samples(t -> 100 + 8 * Math.sin(t / 37.0), List.of());
    Flatness.Verdict verdict = Flatness.judge(samples, "v", TEN_PERCENT, SETTINGS);
    assertThat(verdict.flat()).as(verdict.toString()).isTrue();
    assertThat(verdict.second()).isCloseTo(100, org.assertj.core.data.Offset.offset(2.0));
  }

  @Test
  void shortSpikesAreNoGrowth() throws Exception {
    // Every fifth sample of the last third is four times the level (a merge, a burst of lag).
    Samples samples = samples(t -> t > 2520 && ((int) t / 10) % 5 == 0 ? 400 : 100, List.of());
    Flatness.Verdict verdict = Flatness.judge(samples, "v", TEN_PERCENT, SETTINGS);
    assertThat(verdict.flat()).as(verdict.toString()).isTrue();
    assertThat(verdict.last()).isEqualTo(100);
  }

  @Test
  void aSeriesThatKeepsGrowingIsNotFlat() throws Exception {
    Samples samples = samples(t -> 100 + t / 60.0, List.of()); // +1 per minute
    Flatness.Verdict verdict = Flatness.judge(samples, "v", TEN_PERCENT, SETTINGS);
    assertThat(verdict.flat()).isFalse();
    assertThat(verdict.slopePerHour()).isCloseTo(60, org.assertj.core.data.Offset.offset(0.5));
  }

  @Test
  void aFallingSeriesIsFlat() throws Exception {
    Samples samples = samples(t -> 500 - t / 60.0, List.of());
    assertThat(Flatness.judge(samples, "v", TEN_PERCENT, SETTINGS).flat()).isTrue();
  }

  @Test
  void spikesAfterKillsUntilTheNextWorkerSettledAreNotJudged() throws Exception {
    // Killed at 20 and 40 minutes, ready 30 s later; right after, the value is ten times higher.
    List<double[]> kills = List.of(new double[] {1200, 1230}, new double[] {2400, 2430});
    Samples samples = samples(t -> sinceReady(t, kills) < 60 ? 1000 : 100, kills);
    assertThat(Flatness.judge(samples, "v", TEN_PERCENT, SETTINGS).flat()).isTrue();
  }

  @Test
  void growthWithinEachLifetimeIsSeenWhenLifetimesAreLong() throws Exception {
    // Each worker grows by 3 a minute from 100; the kills reset it, so the thirds match.
    List<double[]> kills = List.of(new double[] {1200, 1230}, new double[] {2400, 2430});
    Samples samples = samples(t -> 100 + 3 * sinceReady(t, kills) / 60.0, kills);
    Flatness.Verdict verdict = Flatness.judge(samples, "v", TEN_PERCENT, SETTINGS);
    assertThat(verdict.flat()).isFalse();
    assertThat(verdict.problems()).anyMatch(p -> p.contains("within its lifetime"));
  }

  @Test
  void tooFewSamplesAreNoVerdictOfFlat() throws Exception {
    SoakSettings sparse =
        new SoakSettings(
            Duration.ofMinutes(60),
            Duration.ZERO,
            Duration.ofMinutes(6),
            Duration.ofMinutes(1),
            Duration.ofMinutes(10),
            false);
    Samples samples = new Samples(dir, List.of("v"));
    for (int t = 0; t <= 3600; t += 600) {
      samples.add(
          Map.of(
              Samples.TIME,
              (double) t,
              Samples.WORKER,
              0.0,
              Samples.WORKER_UP,
              t + 60.0,
              "v",
              1.0));
    }
    Flatness.Verdict verdict = Flatness.judge(samples, "v", TEN_PERCENT, sparse);
    assertThat(verdict.flat()).isFalse();
    assertThat(verdict.problems()).anyMatch(p -> p.startsWith("too few judged samples"));
  }

  @Test
  void killsFallEveryIntervalButNotInTheLastHalfInterval() {
    assertThat(SETTINGS.killTimes())
        .containsExactly(Duration.ofMinutes(20), Duration.ofMinutes(40));
    SoakSettings tenMinutes =
        new SoakSettings(
            Duration.ofMinutes(10),
            Duration.ofSeconds(150),
            Duration.ofMinutes(2),
            Duration.ofMinutes(1),
            Duration.ofSeconds(10),
            false);
    assertThat(tenMinutes.killTimes())
        .containsExactly(Duration.ofSeconds(150), Duration.ofSeconds(300), Duration.ofSeconds(450));
  }

  /** A sample every 10 s for an hour; between a kill and its successor's ready no worker. */
  private Samples samples(DoubleUnaryOperator value, List<double[]> kills) throws Exception {
    Samples samples = new Samples(dir, List.of("v"));
    for (int at = 0; at <= 3600; at += 10) {
      int t = at;
      double up = sinceReady(t, kills);
      int worker = (int) kills.stream().filter(k -> t >= k[0]).count();
      samples.add(
          Map.of(
              Samples.TIME,
              (double) t,
              Samples.WORKER,
              (double) worker,
              Samples.WORKER_UP,
              up,
              "v",
              Double.isNaN(up) ? Double.NaN : value.applyAsDouble(t)));
    }
    return samples;
  }

  /** Seconds since the worker serving {@code t} was ready (the first at 0), NaN while none is. */
  private static double sinceReady(double t, List<double[]> kills) {
    double ready = 0;
    for (double[] kill : kills) {
      if (t >= kill[0] && t < kill[1]) {
        return Double.NaN;
      }
      if (t >= kill[1]) {
        ready = kill[1];
      }
    }
    return t - ready;
  }
}
