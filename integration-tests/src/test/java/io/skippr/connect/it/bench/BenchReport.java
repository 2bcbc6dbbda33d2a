package io.skippr.connect.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Collects the figures of {@link LakeSinkBench} and prints them as one table with ratios. */
final class BenchReport {
  private static final double MIB = 1024.0 * 1024.0;

  private final long rows;
  private final Map<String, String> load = new LinkedHashMap<>();
  private final Map<String, Map<String, String>> throughput = new LinkedHashMap<>();
  private final List<Map<String, String>> paths = new ArrayList<>();
  private ConnectTable connect;
  private final Map<String, Long> jsonBytes = new LinkedHashMap<>();

  BenchReport(long rows) {
    this.rows = rows;
  }

  /** {@code contender / topic}, e.g. {@code lake/bench-nested-schemaless}. */
  static String connectKey(ConnectStage.Contender contender, ConnectStage.Topic topic) {
    return contender.label() + "/" + topic.name();
  }

  /** Notes the load average as a stage starts. */
  void stage(String name) {
    load.put(name, loadAverage());
    System.out.printf("== stage %s (load average %s)%n", name, load.get(name));
  }

  void throughput(List<Map<String, String>> results) {
    for (Map<String, String> result : results) {
      throughput.put(result.get("stage"), result);
    }
  }

  void paths(List<Map<String, String>> results) {
    paths.add(BenchJvm.only(results, "paths"));
  }

  void fill(List<Map<String, String>> results) {
    Map<String, String> fill = BenchJvm.only(results, "fill");
    jsonBytes.put(fill.get("topic"), Long.parseLong(fill.get("value_bytes")));
  }

  /** The rounds of (3) and (4), by {@link #connectKey}, over the topics that ran. */
  void connect(Map<String, List<ConnectStage.Figures>> figures, List<ConnectStage.Topic> ran) {
    connect = new ConnectTable(figures, ran);
  }

  void print() {
    load.put("end", loadAverage());
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Lake sink benchmark: %,d rows per figure; %s; %d cores; Java %s; load average (1/5/15"
            + " min) %s%n",
        rows,
        cpuModel(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        load);
    jsonBytes.forEach(
        (topic, bytes) ->
            System.out.printf(
                Locale.ROOT, "  %s: %.0f bytes of JSON per row%n", topic, bytes / (double) rows));
    System.out.println();
    System.out.println("| # | what | rows/s | rows per CPU-second | ratio | target |");
    System.out.println("| --- | --- | ---: | ---: | --- | --- |");
    printThroughput();
    if (connect != null) {
      connect.print();
    }
    printPaths();
  }

  private void printThroughput() {
    Map<String, String> ceiling = throughput.get("ceiling");
    if (ceiling != null) {
      double base = rate(ceiling);
      row("1", "parquet-java example writer, one thread (ceiling)", ceiling, "1.00", "");
      Map<String, String> withGroups = throughput.get("ceiling-groups");
      if (withGroups != null) {
        row(
            "1b",
            "the same, timing also building its input (Group records, UTF-8 strings)",
            withGroups,
            ratio(rate(withGroups), base) + " × (1)",
            "");
      }
      for (String values : List.of("struct", "schemaless", "nested-struct", "nested-schemaless")) {
        Map<String, String> task = throughput.get("task-" + values);
        if (task == null) {
          continue;
        }
        row(
            "2",
            "LakeSinkTask put + rotate + preCommit, "
                + (values.startsWith("nested-") ? "nested events, " : "flat rows, ")
                + values.replace("nested-", "")
                + " values",
            task,
            ratio(rate(task), base)
                + " × (1) (CPU: "
                + ratio(cpuRate(task), cpuRate(ceiling))
                + ")",
            "≥ 0.80 × (1)");
      }
    }
  }

  private void printPaths() {
    if (paths.isEmpty()) {
      return;
    }
    Map<String, String> one =
        paths.stream().filter(p -> "1".equals(p.get("paths"))).findFirst().orElse(null);
    double onePath = one == null ? Double.NaN : rate(one);
    double onePathCpu = one == null ? Double.NaN : cpuRate(one);
    System.out.println();
    System.out.println(
        "| paths | rows/s | vs 1 path | rows per CPU-second | vs 1 path | files | peak buffered"
            + " / buffer.max.bytes (MiB) | sink heap, live at the buffer's peak (MiB) | Parquet"
            + " writer, one file (MiB) | live + writer − buffer.max.bytes (MiB) | sink heap, peak"
            + " after any GC (upper bound, MiB) |");
    System.out.println("|" + " ---: |".repeat(11));
    for (Map<String, String> p : paths) {
      double baseline = mib(p, "heap_baseline");
      double writer = mib(p, "writer_transient");
      boolean probed = Long.parseLong(p.get("live_heap_at_peak")) >= 0;
      double live = mib(p, "live_heap_at_peak") - baseline;
      System.out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %s | %,.0f | %s | %s | %.1f / %.1f | %s | %.1f (%s rows) | %s | %.1f |%n",
          p.get("paths"),
          rate(p),
          ratio(rate(p), onePath),
          cpuRate(p),
          ratio(cpuRate(p), onePathCpu),
          p.get("files"),
          mib(p, "peak_buffered"),
          mib(p, "budget"),
          probed
              ? String.format(
                  Locale.ROOT, "%.1f (%.1f buffered)", live, mib(p, "buffered_at_probe"))
              : "– (budget not reached)",
          writer,
          p.get("rows_per_file"),
          probed ? String.format(Locale.ROOT, "%+.1f", live + writer - mib(p, "budget")) : "–",
          mib(p, "heap_peak_after_gc") - baseline);
    }
    System.out.printf(
        Locale.ROOT,
        "(sink heap = heap in use minus the baseline before the run, %.1f MiB; see"
            + " docs/performance.md)%n",
        mib(paths.get(0), "heap_baseline"));
  }

  private static void row(
      String number, String what, Map<String, String> figures, String ratio, String target) {
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %,.0f | %,.0f | %s | %s |%n",
        number,
        what,
        rate(figures),
        Double.parseDouble(figures.get("cpu_rows_per_s")),
        ratio,
        target);
  }

  private static double cpuRate(Map<String, String> figures) {
    return Double.parseDouble(figures.get("cpu_rows_per_s"));
  }

  private static double rate(Map<String, String> figures) {
    return Double.parseDouble(figures.get("rows_per_s"));
  }

  private static double mib(Map<String, String> figures, String key) {
    return Long.parseLong(figures.get(key)) / MIB;
  }

  private static String ratio(double value, double base) {
    return String.format(Locale.ROOT, "%.2f", value / base);
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    return sorted.get(sorted.size() / 2);
  }

  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String cpuModel() {
    try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown CPU");
    } catch (IOException e) {
      return "unknown CPU";
    }
  }
}
