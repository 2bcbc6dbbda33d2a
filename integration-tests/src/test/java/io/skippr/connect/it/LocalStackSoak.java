package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.it.soak.Flatness;
import io.skippr.connect.it.soak.LakeProbe;
import io.skippr.connect.it.soak.Samples;
import io.skippr.connect.it.soak.SoakSettings;
import io.skippr.connect.testkit.FreePorts;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The soak (docs/reliability.md), run only by {@code -Psoak}: the local stack as {@code skippr
 * local} runs it (a broker process and a Connect worker process loading the built plugin) under a
 * steady load for hours ({@link SoakLoad}: HTTP ingest of line protocol and JSON from several
 * retrying clients, files dropped into a file source's directory, records added to a poll API),
 * four lake sinks merging small files and one expiring a time-partitioned table ({@link
 * SoakConnectors}), and a SIGKILL of the worker every so often, after which a new worker starts.
 * Every few seconds {@link SoakSampler} samples the worker (heap after a full GC, threads, file
 * descriptors, lake files open for writing), the lakes' files and the sinks' lag into a CSV; at the
 * end {@link SoakReport} judges whether each series stayed flat and draws the chart, and {@link
 * SoakAudit} checks each lake against its sources. Settings: {@link SoakSettings}; the run's files
 * are under {@code integration-tests/target/soak/run-<time>/}.
 */
class LocalStackSoak {
  private final List<CliProcess> processes = new ArrayList<>();
  private PollFixtureApi api;
  private SoakLoad load;
  private SoakSampler sampler;
  private SoakWorker worker;
  private Runnable afterStop = () -> {};

  @AfterEach
  void stopAll() throws InterruptedException {
    if (load != null) {
      load.close();
    }
    if (sampler != null) {
      sampler.close();
    }
    if (worker != null) {
      worker.close();
    }
    CliProcess.stopAll(processes);
    if (api != null) {
      api.close();
    }
    afterStop.run();
  }

  @Test
  void theStackStaysFlatUnderHoursOfLoadAndKillsAndItsLakesEqualItsSources() throws Exception {
    SoakSettings settings = SoakSettings.fromSystemProperties();
    Path run = runDirectory();
    System.out.println("soak: " + settings + "; files under " + run);
    ChaosStack stack = ChaosStack.start(run, processes);
    stack.createTopic(SoakConnectors.FILE_TOPIC, SoakConnectors.FILE_PARTITIONS);
    worker = new SoakWorker(stack);
    worker.start();
    api = PollFixtureApi.start(5);
    Lakes lakes = new Lakes(run);
    String ingestUrl = startConnectors(stack, run, lakes);

    load =
        new SoakLoad(
            ingestUrl,
            Files.createDirectories(run.resolve("inbox")),
            Files.createDirectories(run.resolve("staging")),
            api);
    Samples samples = new Samples(run, SoakSampler.series(lakes.probes));
    String loadAtStart = loadAverage();
    long start = System.nanoTime();
    load.start();
    sampler = new SoakSampler(samples, worker, lakes.probes, stack, load, api, start);
    sampler.start(settings.sampleEvery());
    killAndRestart(settings, samples, start);
    sampler.close();
    load.finish();
    double seconds = (System.nanoTime() - start) / 1e9;

    SoakReport report = new SoakReport(lakes.probes, lakes.expiring);
    List<Flatness.Verdict> verdicts = report.judge(samples, settings);
    long flat = verdicts.stream().filter(Flatness.Verdict::flat).count();
    long failedSamples = Arrays.stream(samples.column("failed_tasks")).filter(v -> v > 0).count();
    String verdict =
        String.format(
            Locale.ROOT,
            "%d of %d judged series flat, %d kills, %s, %,d rows acknowledged, %s",
            flat,
            verdicts.size(),
            samples.kills().size(),
            settings.duration(),
            load.acknowledgedRows(),
            failedSamples == 0
                ? "no task FAILED"
                : "a task FAILED in " + failedSamples + " samples");
    report.chart(run.resolve("soak.png"), samples, settings, verdict);
    List<String> summary = summary(settings, samples, verdicts, seconds);
    summary.add(
        1,
        String.format(
            "machine: %d cores; load average (1, 5, 15 min) %s at the start, %s at the end",
            Runtime.getRuntime().availableProcessors(), loadAtStart, loadAverage()));
    write(run, summary);

    SoakAudit audit = new SoakAudit(stack.bootstrapServers(), run.resolve("audit"));
    audit(audit, stack, run, lakes);
    summary.add("");
    summary.add("lakes against their sources:");
    audit.figures().forEach(f -> summary.add("  " + f));
    summary.add("verdict: " + verdict);
    write(run, summary);

    assertThat(verdicts)
        .as("series that did not stay flat (see " + run.resolve("summary.txt") + ")")
        .allMatch(Flatness.Verdict::flat);
    assertThat(failedSamples).as("samples that saw a task FAILED").isZero();
    if (!settings.keepData()) {
      afterStop = () -> lakes.deleteData(run); // once no process writes to them any more
    }
  }

  /** Where the run writes: {@code soak.dir} (the profile sets target/soak) or target/soak. */
  private static Path runDirectory() throws IOException {
    String time = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path base = Path.of(System.getProperty("soak.dir", "target/soak")).toAbsolutePath();
    return Files.createDirectories(base.resolve("run-" + time));
  }

  /** The four lakes, their probes and the tables each holds. */
  private static final class Lakes {
    final Path lp;
    final Path json;
    final Path expiringRoot;
    final Path sources;
    final LakeProbe expiring;
    final Map<LakeProbe, List<String>> probes = new LinkedHashMap<>();

    Lakes(Path run) {
      lp = run.resolve("lake-lp");
      json = run.resolve("lake-json");
      expiringRoot = run.resolve("lake-expiring");
      sources = run.resolve("lake-sources");
      long target = SoakConnectors.TARGET_BYTES;
      probes.put(new LakeProbe("lp", lp, target), List.of(SoakConnectors.LP_TOPIC));
      probes.put(new LakeProbe("json", json, target), List.of(SoakConnectors.JSON_TOPIC));
      expiring = new LakeProbe("expiring", expiringRoot, target);
      probes.put(expiring, List.of(SoakConnectors.JSON_TOPIC));
      probes.put(
          new LakeProbe("sources", sources, target),
          SoakConnectors.SINK_TOPICS.get(SoakConnectors.SOURCES_LAKE));
    }

    /** Deletes what a passing run need not keep: broker, lakes, state; keeps logs and results. */
    void deleteData(Path run) {
      for (String dir :
          List.of(
              "broker",
              "lake-lp",
              "lake-json",
              "lake-expiring",
              "lake-sources",
              "state",
              "audit",
              "inbox",
              "staging")) {
        try {
          Utils.delete(run.resolve(dir).toFile());
        } catch (IOException e) {
          System.out.println("soak: could not delete " + run.resolve(dir) + ": " + e);
        }
      }
    }
  }

  /** Registers the sources and sinks; returns the ingest endpoint's URL once it accepts writes. */
  private String startConnectors(ChaosStack stack, Path run, Lakes lakes) throws Exception {
    Path state = run.resolve("state");
    int port = FreePorts.one();
    stack.putConnector(0, SoakConnectors.LP_LAKE, SoakConnectors.lineProtocolLake(lakes.lp, state));
    stack.putConnector(0, SoakConnectors.JSON_LAKE, SoakConnectors.jsonLake(lakes.json, state));
    stack.putConnector(
        0, SoakConnectors.EXPIRING_LAKE, SoakConnectors.expiringLake(lakes.expiringRoot, state));
    stack.putConnector(
        0, SoakConnectors.SOURCES_LAKE, SoakConnectors.sourcesLake(lakes.sources, state));
    stack.putConnector(0, SoakConnectors.INGEST, SoakConnectors.ingest(port, state));
    stack.putConnector(0, SoakConnectors.FILES, SoakConnectors.files(run.resolve("inbox"), state));
    stack.putConnector(0, SoakConnectors.POLL, SoakConnectors.poll(api, state));
    String url = "http://127.0.0.1:" + port;
    IngestChaosIT.awaitAccepting(url);
    return url;
  }

  /** Kills the worker at each kill time and starts the next, until the duration is over. */
  private void killAndRestart(SoakSettings settings, Samples samples, long start) throws Exception {
    for (Duration at : settings.killTimes()) {
      sleepUntil(start, at);
      double killedAt = (System.nanoTime() - start) / 1e9;
      long pid = worker.pid();
      worker.kill();
      worker.start();
      double readyAt = (worker.live().readyAtNanos() - start) / 1e9;
      samples.killed(killedAt, readyAt);
      System.out.printf(
          Locale.ROOT,
          "soak: %6.0f s SIGKILL worker (pid %d); the next ready %.1f s later, %,d rows"
              + " acknowledged%n",
          killedAt,
          pid,
          readyAt - killedAt,
          load.acknowledgedRows());
    }
    sleepUntil(start, settings.duration());
  }

  /** The soak's schedule: the load runs for a set time, nothing is awaited. */
  private static void sleepUntil(long start, Duration at) throws InterruptedException {
    long left = start + at.toNanos() - System.nanoTime();
    if (left > 0) {
      Thread.sleep(left / 1_000_000);
    }
  }

  private void audit(SoakAudit audit, ChaosStack stack, Path run, Lakes lakes) throws Exception {
    audit.expiring(lakes.expiringRoot, SoakConnectors.JSON_TOPIC, SoakConnectors.INGEST_PARTITIONS);
    audit.ingest(
        "line protocol",
        lakes.lp,
        SoakConnectors.LP_TOPIC,
        SoakConnectors.INGEST_PARTITIONS,
        load.lineProtocol,
        "cast(substr(client, 2) as integer)",
        "cast(substr(req, 2) as bigint)");
    audit.ingest(
        "JSON",
        lakes.json,
        SoakConnectors.JSON_TOPIC,
        SoakConnectors.INGEST_PARTITIONS,
        load.json,
        "client",
        "req");
    audit.files(
        lakes.sources, SoakConnectors.FILE_TOPIC, SoakConnectors.FILE_PARTITIONS, load.fileLines());
    audit.poll(
        lakes.sources,
        List.of(SoakConnectors.ORDERS_TOPIC, SoakConnectors.INVOICES_TOPIC),
        api.items().ids());
    Map<Path, Map<String, Integer>> logs =
        Map.of(
            lakes.lp, Map.of(SoakConnectors.LP_TOPIC, SoakConnectors.INGEST_PARTITIONS),
            lakes.json, Map.of(SoakConnectors.JSON_TOPIC, SoakConnectors.INGEST_PARTITIONS),
            lakes.expiringRoot, Map.of(SoakConnectors.JSON_TOPIC, SoakConnectors.INGEST_PARTITIONS),
            lakes.sources,
                Map.of(
                    SoakConnectors.FILE_TOPIC, SoakConnectors.FILE_PARTITIONS,
                    SoakConnectors.ORDERS_TOPIC, 1,
                    SoakConnectors.INVOICES_TOPIC, 1));
    for (var lake : logs.entrySet()) {
      for (var topic : lake.getValue().entrySet()) {
        SoakAudit.assertLogsSound(lake.getKey(), topic.getKey(), topic.getValue());
      }
    }
    Map<String, Integer> partitions =
        Map.of(
            SoakConnectors.LP_LAKE, 3,
            SoakConnectors.JSON_LAKE, 3,
            SoakConnectors.EXPIRING_LAKE, 3,
            SoakConnectors.SOURCES_LAKE, 4);
    for (String sink : SoakConnectors.SINKS) {
      AuditCli.assertClean(
          run.resolve("logs"),
          sink,
          stack.restUrl(0),
          stack.bootstrapServers(),
          partitions.get(sink));
    }
  }

  private List<String> summary(
      SoakSettings settings, Samples samples, List<Flatness.Verdict> verdicts, double seconds) {
    List<String> lines = new ArrayList<>();
    lines.add("soak: " + settings);
    lines.add(
        String.format(
            Locale.ROOT,
            "load: %.0f s; %,d rows acknowledged (%,.0f/s, %,d retries); %,d file lines; %,d poll"
                + " records; %d samples (%d parts missed)",
            seconds,
            load.acknowledgedRows(),
            load.acknowledgedRows() / seconds,
            load.lineProtocol.retries() + load.json.retries(),
            load.fileLines(),
            api.items().size(),
            samples.size(),
            sampler.partsMissed()));
    for (Samples.Kill kill : samples.kills()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "kill at %.0f s, next worker ready after %.1f s",
              kill.killedAt(),
              kill.readyAt() - kill.killedAt()));
    }
    lines.add("");
    lines.add(Flatness.header());
    verdicts.forEach(v -> lines.add(v.toString()));
    return lines;
  }

  /** The first three fields of /proc/loadavg. */
  private static String loadAverage() throws IOException {
    String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
    return String.join(" ", Arrays.asList(fields).subList(0, 3));
  }

  private static void write(Path run, List<String> summary) throws IOException {
    Files.write(run.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
    System.out.println(String.join("\n", summary));
  }
}
