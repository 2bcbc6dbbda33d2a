package io.skippr.connect.it;

import io.skippr.connect.it.soak.Flatness;
import io.skippr.connect.it.soak.Flatness.Tolerance;
import io.skippr.connect.it.soak.LakeProbe;
import io.skippr.connect.it.soak.Samples;
import io.skippr.connect.it.soak.SoakChart;
import io.skippr.connect.it.soak.SoakSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which of the soak's series must stay flat and within what tolerance, and the chart of them all.
 * Judged: the worker's heap after a full GC, metaspace, resident memory beyond the committed heap,
 * threads, file descriptors and lake files open for writing; per lake the {@code .tmp} files on
 * disk; per table the small live files and the retired ones; the expiring table's live files; each
 * sink's lag. Shown but not judged: the committed heap and resident memory (the JVM grows its heap
 * lazily up to its maximum), CPU, buffered bytes, the live files of the tables that keep everything
 * (they grow with the data, one per ~1 MiB merged), and the TP log entries (the logs keep every
 * entry).
 */
final class SoakReport {
  private static final Tolerance HEAP = new Tolerance(0.10, 32);
  private static final Tolerance METASPACE = new Tolerance(0.05, 8);
  private static final Tolerance NATIVE = new Tolerance(0.10, 64);
  private static final Tolerance THREADS = new Tolerance(0.05, 8);
  private static final Tolerance FDS = new Tolerance(0.05, 16);
  private static final Tolerance OPEN_WRITES = new Tolerance(0, 4);
  private static final Tolerance FILES = new Tolerance(0.25, 10);
  private static final Tolerance RETIRED = new Tolerance(0.25, 20);
  private static final Tolerance LAG = new Tolerance(0.5, 10_000);

  private final Map<LakeProbe, List<String>> lakes;
  private final LakeProbe expiring;

  SoakReport(Map<LakeProbe, List<String>> lakes, LakeProbe expiring) {
    this.lakes = lakes;
    this.expiring = expiring;
  }

  /** Every judged series with its tolerance, in the order the summary lists them. */
  Map<String, Tolerance> judged() {
    Map<String, Tolerance> judged = new LinkedHashMap<>();
    judged.put("heap_mb", HEAP);
    judged.put("metaspace_mb", METASPACE);
    judged.put("native_mb", NATIVE);
    judged.put("threads", THREADS);
    judged.put("fds", FDS);
    judged.put("writers", OPEN_WRITES);
    lakes.forEach(
        (lake, tables) -> {
          judged.put(lake.lakeSeries().get(0), OPEN_WRITES);
          for (String table : tables) {
            judged.put(lake.small(table), FILES);
            judged.put(lake.retired(table), RETIRED);
            if (lake == expiring) {
              judged.put(lake.live(table), FILES);
            }
          }
        });
    SoakConnectors.SINKS.forEach(sink -> judged.put(SoakSampler.lagSeries(sink), LAG));
    return judged;
  }

  List<Flatness.Verdict> judge(Samples samples, SoakSettings settings) {
    List<Flatness.Verdict> verdicts = new ArrayList<>();
    judged()
        .forEach(
            (series, tolerance) ->
                verdicts.add(Flatness.judge(samples, series, tolerance, settings)));
    return verdicts;
  }

  void chart(Path png, Samples samples, SoakSettings settings, String subtitle) throws IOException {
    List<String> small = new ArrayList<>();
    List<String> retired = new ArrayList<>();
    List<String> live = new ArrayList<>();
    List<String> tmp = new ArrayList<>(List.of("writers"));
    List<String> log = new ArrayList<>();
    lakes.forEach(
        (lake, tables) -> {
          tables.forEach(
              table -> {
                small.add(lake.small(table));
                retired.add(lake.retired(table));
                live.add(lake.live(table));
              });
          tmp.add(lake.lakeSeries().get(0));
          log.add(lake.lakeSeries().get(1));
        });
    List<SoakChart.Panel> panels =
        List.of(
            panel("Worker heap after a full GC, metaspace (MB)", "heap_mb", "metaspace_mb"),
            panel(
                "Worker memory (MB): resident, committed heap, resident beyond the heap",
                "rss_mb",
                "heap_committed_mb",
                "native_mb"),
            panel("Worker threads and open file descriptors", "threads", "fds"),
            new SoakChart.Panel(
                "Lake files open for writing by the worker (writers), .tmp files on disk", tmp),
            new SoakChart.Panel("Small live files per table (compaction's backlog)", small),
            new SoakChart.Panel("Retired files per table (merged or expired, in grace)", retired),
            new SoakChart.Panel(
                "Live files per table (tables that keep everything grow: ~1 file per MiB)", live),
            new SoakChart.Panel(
                "Sink consumer group lag (records)",
                SoakConnectors.SINKS.stream().map(SoakSampler::lagSeries).toList()),
            new SoakChart.Panel("TP log entries per lake (not judged)", log),
            panel(
                "Worker CPU (% of one core), buffered by the sinks (MB)",
                "cpu_pct", "buffered_mb"));
    SoakChart.write(
        png,
        samples,
        panels,
        settings,
        "Soak: skippr local, HTTP ingest + file + poll sources, 4 lake sinks, SIGKILLs",
        subtitle);
  }

  private static SoakChart.Panel panel(String title, String... columns) {
    return new SoakChart.Panel(title, List.of(columns));
  }
}
