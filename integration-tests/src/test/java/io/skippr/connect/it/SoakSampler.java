package io.skippr.connect.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.it.soak.GroupLag;
import io.skippr.connect.it.soak.LakeProbe;
import io.skippr.connect.it.soak.Samples;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Takes the soak's samples on a thread of its own: the worker process ({@link
 * io.skippr.connect.it.soak.WorkerProbe}), the files of each lake ({@link LakeProbe}), each sink's
 * consumer group lag ({@link GroupLag}), tasks reported FAILED, and the load's progress. A part
 * that cannot be read at that moment (the worker was just killed) is missing from that sample.
 */
final class SoakSampler implements AutoCloseable {
  static final List<String> WORKER_SERIES =
      List.of(
          "heap_mb",
          "heap_committed_mb",
          "metaspace_mb",
          "rss_mb",
          "native_mb",
          "threads",
          "fds",
          "writers",
          "lake_reads",
          "cpu_pct",
          "buffered_mb");

  static final List<String> PROGRESS_SERIES =
      List.of("failed_tasks", "rows_acknowledged", "file_lines", "poll_records");

  private final Samples samples;
  private final SoakWorker worker;
  private final Map<LakeProbe, List<String>> lakes;
  private final GroupLag lag;
  private final ChaosStack stack;

  /** A line on the console every this many samples, for whoever watches a long run. */
  private static final int PROGRESS_EVERY = 20;

  private final SoakLoad load;
  private final PollFixtureApi api;
  private final long startNanos;
  private final AtomicInteger partsMissed = new AtomicInteger();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(SoakLoad.daemon("soak-sampler"));

  SoakSampler(
      Samples samples,
      SoakWorker worker,
      Map<LakeProbe, List<String>> lakes,
      ChaosStack stack,
      SoakLoad load,
      PollFixtureApi api,
      long startNanos) {
    this.samples = samples;
    this.worker = worker;
    this.lakes = lakes;
    this.lag = new GroupLag(stack.bootstrapServers());
    this.stack = stack;
    this.load = load;
    this.api = api;
    this.startNanos = startNanos;
  }

  /** Every column the samples have, in the order the chart and CSV show them. */
  static List<String> series(Map<LakeProbe, List<String>> lakes) {
    List<String> all = new ArrayList<>(WORKER_SERIES);
    lakes.forEach(
        (lake, tables) -> {
          tables.forEach(table -> all.addAll(lake.tableSeries(table)));
          all.addAll(lake.lakeSeries());
        });
    SoakConnectors.SINKS.forEach(sink -> all.add(lagSeries(sink)));
    all.addAll(PROGRESS_SERIES);
    return all;
  }

  static String lagSeries(String sink) {
    return "lag/" + sink;
  }

  void start(Duration every) {
    timer.scheduleAtFixedRate(this::sampleQuietly, 0, every.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** How many parts of samples could not be read (each such part is missing from its sample). */
  int partsMissed() {
    return partsMissed.get();
  }

  private void sampleQuietly() {
    try {
      sample();
    } catch (RuntimeException e) {
      partsMissed.incrementAndGet();
      System.out.println("soak: a sample failed: " + e);
    }
  }

  private void sample() {
    Map<String, Double> row = new LinkedHashMap<>();
    row.put(Samples.TIME, (System.nanoTime() - startNanos) / 1e9);
    SoakWorker.Live live = worker.live();
    if (live != null) {
      row.put(Samples.WORKER, (double) live.number());
      row.put(Samples.WORKER_UP, (System.nanoTime() - live.readyAtNanos()) / 1e9);
      List<Path> roots = lakes.keySet().stream().map(LakeProbe::root).toList();
      part("worker", () -> row.putAll(live.probe().sample(roots)));
    }
    lakes.forEach((lake, tables) -> part(lake.name(), () -> lake.sample(tables, row)));
    for (String sink : SoakConnectors.SINKS) {
      part(
          "lag of " + sink,
          () ->
              row.put(
                  lagSeries(sink), (double) lag.lag(sink, SoakConnectors.SINK_TOPICS.get(sink))));
    }
    if (live != null) {
      part("connector status", () -> row.put("failed_tasks", (double) failedTasks()));
    }
    row.put("rows_acknowledged", (double) load.acknowledgedRows());
    row.put("file_lines", (double) load.fileLines());
    row.put("poll_records", (double) api.items().size());
    if (live != null && worker.live() != live) {
      // Killed during the sample: its values may be a dying process's.
      WORKER_SERIES.forEach(row::remove);
      row.remove("failed_tasks");
      row.put(Samples.WORKER_UP, Double.NaN);
    }
    samples.add(row);
    if (samples.size() % PROGRESS_EVERY == 1) {
      System.out.printf(
          Locale.ROOT,
          "soak: %6.0f s worker %s: heap %s MB, %s threads, %s fds; line protocol lag %s; %,d rows"
              + " acknowledged%n",
          row.get(Samples.TIME),
          live == null ? "down" : Integer.toString(live.number()),
          shown(row.get("heap_mb")),
          shown(row.get("threads")),
          shown(row.get("fds")),
          shown(row.get(lagSeries(SoakConnectors.LP_LAKE))),
          load.acknowledgedRows());
    }
  }

  private static String shown(Double value) {
    return value == null || value.isNaN() ? "-" : String.format(Locale.ROOT, "%.0f", value);
  }

  private int failedTasks() {
    int failed = 0;
    for (String connector : SoakConnectors.CONNECTORS) {
      JsonNode status = stack.status(0, connector);
      if (status == null) {
        throw new IllegalStateException("no status of " + connector);
      }
      List<JsonNode> states = new ArrayList<>();
      states.add(status.path("connector"));
      status.path("tasks").forEach(states::add);
      failed +=
          (int) states.stream().filter(s -> "FAILED".equals(s.path("state").asText())).count();
    }
    return failed;
  }

  private interface Part {
    void read() throws Exception;
  }

  private void part(String what, Part part) {
    try {
      part.read();
    } catch (Exception e) {
      partsMissed.incrementAndGet();
      if (worker.live() != null) {
        System.out.println("soak: " + what + " not sampled: " + e);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    timer.shutdown();
    if (!timer.awaitTermination(2, TimeUnit.MINUTES)) {
      timer.shutdownNow();
    }
    lag.close();
  }
}
