package io.skippr.connect.it.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Whether a series stayed flat. Judged are the samples after the warm-up, of a worker that has been
 * ready for at least the settle time (a kill ends a worker; the samples from the kill until its
 * successor settled are left out, for the per-process series and the lake and lag alike). The
 * window from the end of the warm-up to the end of the load is cut into thirds by time; the series
 * is flat when the median of the last third is at most the median of the second third plus the
 * tolerance ({@code second × (1 + relative) + absolute}): medians, so that a short spike (a merge,
 * a burst of lag) is not taken for growth while a level that keeps rising is. Only growth fails: a
 * series that falls is flat. The same comparison is made within each worker's lifetime that has at
 * least {@value #MIN_PER_THIRD} judged samples in each of its own thirds, so that growth which a
 * kill resets is seen too when lifetimes are long enough.
 */
public final class Flatness {
  /** Fewer judged samples than this in a third: too few to judge. */
  static final int MIN_PER_THIRD = 3;

  /** How much a series may grow from the second third to the last. */
  public record Tolerance(double relative, double absolute) {
    double limit(double base) {
      return base * (1 + relative) + absolute;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "+%.0f%% +%s", relative * 100, plain(absolute));
    }
  }

  /**
   * The judgement of one series.
   *
   * @param judged samples judged in the whole window
   * @param second median of the second third
   * @param last median of the last third
   * @param limit what the last third may reach
   * @param slopePerHour least-squares slope over the judged samples, per hour (reported only)
   * @param problems why it is not flat; empty when it is
   */
  public record Verdict(
      String series,
      Tolerance tolerance,
      int judged,
      double second,
      double last,
      double limit,
      double slopePerHour,
      List<String> problems) {
    public boolean flat() {
      return problems.isEmpty();
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%-34s %5d %12s %12s %12s %10s %12s  %s",
          series,
          judged,
          plain(second),
          plain(last),
          plain(limit),
          tolerance,
          plain(slopePerHour),
          flat() ? "flat" : "NOT FLAT: " + String.join("; ", problems));
    }
  }

  private Flatness() {}

  /** The header line of {@link Verdict#toString()}. */
  public static String header() {
    return String.format(
        Locale.ROOT,
        "%-34s %5s %12s %12s %12s %10s %12s  %s",
        "series",
        "n",
        "2nd third",
        "last third",
        "limit",
        "tolerance",
        "slope/h",
        "verdict");
  }

  /** Judges column {@code series} of the samples. */
  public static Verdict judge(
      Samples samples, String series, Tolerance tolerance, SoakSettings settings) {
    double[] t = samples.column(Samples.TIME);
    double[] value = samples.column(series);
    double[] worker = samples.column(Samples.WORKER);
    double[] up = samples.column(Samples.WORKER_UP);
    double settle = settings.settle().toMillis() / 1000.0;
    double from = settings.warmup().toMillis() / 1000.0;
    double to = settings.duration().toMillis() / 1000.0;
    List<double[]> judged = new ArrayList<>();
    TreeMap<Integer, List<double[]>> lifetimes = new TreeMap<>();
    for (int i = 0; i < t.length; i++) {
      if (t[i] >= from && t[i] <= to && !Double.isNaN(value[i]) && up[i] >= settle) {
        double[] point = {t[i], value[i]};
        judged.add(point);
        lifetimes.computeIfAbsent((int) worker[i], w -> new ArrayList<>()).add(point);
      }
    }
    List<String> problems = new ArrayList<>();
    Thirds whole = Thirds.of(judged, from, to);
    if (whole.tooFew()) {
      problems.add(
          String.format(
              Locale.ROOT,
              "too few judged samples (%d and %d in the last two thirds; lengthen the run or the"
                  + " kill interval)",
              whole.secondCount,
              whole.lastCount));
    } else if (whole.last > tolerance.limit(whole.second)) {
      problems.add("the last third is above the limit");
    }
    lifetimes.forEach(
        (w, points) -> {
          Thirds own = Thirds.of(points, points.get(0)[0], points.get(points.size() - 1)[0]);
          if (!own.tooFew() && own.last > tolerance.limit(own.second)) {
            problems.add(
                String.format(
                    Locale.ROOT,
                    "worker %d grew from %s to %s within its lifetime",
                    w,
                    plain(own.second),
                    plain(own.last)));
          }
        });
    return new Verdict(
        series,
        tolerance,
        judged.size(),
        whole.second,
        whole.last,
        tolerance.limit(whole.second),
        slopePerHour(judged),
        problems);
  }

  /** The medians of the second and last thirds of [from, to] and how many samples each has. */
  private record Thirds(double second, int secondCount, double last, int lastCount) {
    static Thirds of(List<double[]> points, double from, double to) {
      double third = (to - from) / 3;
      List<Double> second = new ArrayList<>();
      List<Double> last = new ArrayList<>();
      for (double[] p : points) {
        if (p[0] >= from + 2 * third) {
          last.add(p[1]);
        } else if (p[0] >= from + third) {
          second.add(p[1]);
        }
      }
      return new Thirds(median(second), second.size(), median(last), last.size());
    }

    boolean tooFew() {
      return secondCount < MIN_PER_THIRD || lastCount < MIN_PER_THIRD;
    }
  }

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static double slopePerHour(List<double[]> points) {
    int n = points.size();
    if (n < 2) {
      return Double.NaN;
    }
    double sx = 0;
    double sy = 0;
    for (double[] p : points) {
      sx += p[0];
      sy += p[1];
    }
    double mx = sx / n;
    double my = sy / n;
    double sxy = 0;
    double sxx = 0;
    for (double[] p : points) {
      sxy += (p[0] - mx) * (p[1] - my);
      sxx += (p[0] - mx) * (p[0] - mx);
    }
    return sxx == 0 ? Double.NaN : sxy / sxx * 3600;
  }

  static String plain(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e12) {
      return Long.toString((long) value);
    }
    return String.format(Locale.ROOT, "%.1f", value);
  }
}
