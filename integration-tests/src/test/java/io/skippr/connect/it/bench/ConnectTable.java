package io.skippr.connect.it.bench;

import io.skippr.connect.it.bench.ConnectStage.Contender;
import io.skippr.connect.it.bench.ConnectStage.Figures;
import io.skippr.connect.it.bench.ConnectStage.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * The end-to-end rows of {@link LakeSinkBench}'s table, (3) and (4) with their variants: each
 * contender's median rates, and its ratios to the others as the median of each round's ratio (runs
 * of one round are minutes apart at most, so a busy machine disturbs a ratio less than the
 * figures).
 */
final class ConnectTable {
  private final Map<String, List<Figures>> figures;
  private final List<Topic> topics;

  /**
   * @param figures the measured rounds of each {@link BenchReport#connectKey}, in round order
   */
  ConnectTable(Map<String, List<Figures>> figures, List<Topic> topics) {
    this.figures = Map.copyOf(figures);
    this.topics = List.copyOf(topics);
  }

  void print() {
    for (Topic topic : topics) {
      printTopic(topic);
    }
    if (!topics.isEmpty()) {
      System.out.println(
          "(Kafka's = org.apache.kafka.connect.json.JsonConverter, streaming ="
              + " io.skippr.connect.json.StreamingJsonConverter; ratios: the median of each round's"
              + " ratio, CPU = rows per CPU-second of the whole JVM)");
    }
  }

  private void printTopic(Topic topic) {
    String what =
        topic.name().replace("bench-", "")
            + " ("
            + topic.partitions()
            + (topic.partitions() == 1 ? " partition" : " partitions")
            + ")";
    row(
        "4",
        "Connect + do-nothing sink, Kafka's converter, " + what,
        Contender.NOOP,
        topic,
        "1.00");
    row(
        "4s",
        "Connect + do-nothing sink, streaming converter, " + what,
        Contender.NOOP_STREAMING,
        topic,
        ratios(topic, Contender.NOOP_STREAMING, Contender.NOOP, "(4)"),
        "≥ 2 × (4)");
    row(
        "3",
        "Connect + lake sink, Kafka's converter, " + what,
        Contender.LAKE,
        topic,
        ratios(topic, Contender.LAKE, Contender.NOOP, "(4)", Contender.ICEBERG, "(3i)"),
        "≥ 0.80 × (4); ≥ 2 × (3i)");
    row(
        "3s",
        "Connect + lake sink, streaming converter, " + what,
        Contender.LAKE_STREAMING,
        topic,
        ratios(
            topic,
            Contender.LAKE_STREAMING,
            Contender.NOOP,
            "(4)",
            Contender.ICEBERG,
            "(3i)",
            Contender.LAKE,
            "(3)"),
        "≥ 1.0 × (4); ≥ 3 × (3i)");
    row(
        "3c",
        "Connect + lake sink merging its files every second, " + what,
        Contender.LAKE_COMPACTING,
        topic,
        ratios(topic, Contender.LAKE_COMPACTING, Contender.LAKE, "(3)"));
    row(
        "3r",
        "Connect + lake sink registering in Iceberg, " + what,
        Contender.LAKE_ICEBERG,
        topic,
        ratios(topic, Contender.LAKE_ICEBERG, Contender.LAKE, "(3)", Contender.ICEBERG, "(3i)"),
        "≥ 2 × (3i)");
    row(
        "3i",
        "Connect + Apache Iceberg sink 1.12.0, Kafka's converter, " + what,
        Contender.ICEBERG,
        topic,
        ratios(topic, Contender.ICEBERG, Contender.NOOP, "(4)"));
  }

  /**
   * {@code 0.81 × (4) (CPU: 0.55); 2.10 × (3i) (CPU: 1.20)}: {@code contender}'s ratio to each base
   * contender (pairs of contender and label) that ran.
   */
  private String ratios(Topic topic, Contender contender, Object... bases) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < bases.length; i += 2) {
      double[] ratio = ratio(topic, contender, (Contender) bases[i]);
      if (ratio != null) {
        parts.add(
            String.format(Locale.ROOT, "%.2f × %s (CPU: %.2f)", ratio[0], bases[i + 1], ratio[1]));
      }
    }
    return String.join("; ", parts);
  }

  /** The median of each round's ratio {@code contender / base}, wall and CPU, or null. */
  double[] ratio(Topic topic, Contender contender, Contender base) {
    List<Figures> runs = figures.get(BenchReport.connectKey(contender, topic));
    List<Figures> bases = figures.get(BenchReport.connectKey(base, topic));
    if (runs == null || bases == null) {
      return null;
    }
    return new double[] {
      roundRatio(runs, bases, Figures::rowsPerSecond),
      roundRatio(runs, bases, Figures::rowsPerCpuSecond)
    };
  }

  private static double roundRatio(
      List<Figures> runs, List<Figures> bases, ToDoubleFunction<Figures> figure) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < Math.min(runs.size(), bases.size()); i++) {
      ratios.add(figure.applyAsDouble(runs.get(i)) / figure.applyAsDouble(bases.get(i)));
    }
    return BenchReport.median(ratios);
  }

  /** The median rate and rate per CPU-second of a contender on a topic, or null. */
  double[] medians(Topic topic, Contender contender) {
    List<Figures> runs = figures.get(BenchReport.connectKey(contender, topic));
    if (runs == null) {
      return null;
    }
    return new double[] {
      BenchReport.median(runs.stream().map(Figures::rowsPerSecond).toList()),
      BenchReport.median(runs.stream().map(Figures::rowsPerCpuSecond).toList())
    };
  }

  private void row(String number, String what, Contender contender, Topic topic, String ratio) {
    row(number, what, contender, topic, ratio, "");
  }

  private void row(
      String number, String what, Contender contender, Topic topic, String ratio, String target) {
    double[] rates = medians(topic, contender);
    if (rates == null) {
      return;
    }
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %,.0f | %,.0f (whole JVM) | %s | %s |%n",
        number,
        what,
        rates[0],
        rates[1],
        Objects.requireNonNullElse(ratio, ""),
        target);
  }
}
