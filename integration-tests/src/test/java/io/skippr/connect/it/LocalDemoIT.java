package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.FreePorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr local --demo} as a user runs it, twice on one data directory: each run pushes its
 * load through HTTP, waits for the lake and prints what DuckDB reads; the second run's totals
 * include the first run's rows.
 */
class LocalDemoIT {
  // The demo's load, as documented: 6 hosts x 500 points of cpu, 300 JSON orders per run.
  private static final int HOSTS = 6;
  private static final int POINTS_PER_HOST = 500;
  private static final int CPU_ROWS = HOSTS * POINTS_PER_HOST;
  private static final int ORDERS = 300;
  private static final Duration DEMO = Duration.ofMinutes(4);
  private static final String DONE = "skippr local: demo: done";
  private static final Duration STEADY = Duration.ofSeconds(90);
  private static final Duration STEADY_PAUSE = Duration.ofMillis(250);
  private static final Duration SAMPLE_EVERY = Duration.ofSeconds(5);
  private static final int STEADY_BATCH = 100;

  @TempDir Path dataDir;
  @TempDir Path logs;

  @Test
  void demoLandsItsRowsAndASecondRunAddsToThem() throws Exception {
    int[] ports = FreePorts.take(4);
    Path lake = dataDir.resolve("lake");

    String first = runDemo("first", ports, 1, () -> {});
    assertThat(first)
        .contains("connector demo-ingest (HTTP ingest on http://127.0.0.1:" + ports[3]);
    assertThat(first).contains("demo-lake (lake sink into " + lake + "): created");
    // The dead letter queue exists before the sinks start: their reporters find it.
    assertThat(first).doesNotContain("demo-dlq doesn't exist");
    assertThat(lakeRows(lake, "demo.cpu")).isEqualTo(CPU_ROWS);
    assertThat(lakeRows(lake, "demo.events.orders")).isEqualTo(ORDERS);
    assertThat(parquetFiles(lake.resolve("demo.cpu"))).isNotEmpty();
    assertThat(parquetFiles(lake.resolve("demo.events.orders"))).isNotEmpty();

    String second = runDemo("second", ports, 2, () -> steadyLoadKeepsFilesBounded(ports, lake));
    assertThat(second).contains("demo-lake (lake sink into " + lake + "): already registered");
    assertThat(lakeRows(lake, "demo.cpu")).isEqualTo(2L * CPU_ROWS);
    assertThat(lakeRows(lake, "demo.events.orders")).isEqualTo(2L * ORDERS);
  }

  @Test
  void ingestPortInUseIsAOneLineError() throws Exception {
    int[] ports = FreePorts.take(4);
    try (ServerSocket taken = new ServerSocket(ports[3], 1, InetAddress.getLoopbackAddress())) {
      CliProcess process = start("ingest-port-in-use", ports);
      assertThat(process.awaitExit(Duration.ofSeconds(60))).isNotZero();
      assertThat(process.errorLines())
          .containsExactly(
              "skippr local: port "
                  + ports[3]
                  + " on 127.0.0.1 is already in use (choose another with --ingest-port)");
    }
  }

  private CliProcess start(String name, int[] ports) throws IOException {
    return CliProcess.startLocal(
        name,
        logs,
        List.of(
            "--data-dir=" + dataDir,
            "--kafka-port=" + ports[0],
            "--controller-port=" + ports[1],
            "--rest-port=" + ports[2],
            "--ingest-port=" + ports[3],
            "--demo"));
  }

  /**
   * Runs {@code local --demo} until it is done, checks its report, runs {@code whileRunning}, stops
   * it with SIGTERM.
   */
  private String runDemo(String name, int[] ports, int run, Step whileRunning) throws Exception {
    CliProcess process = start(name, ports);
    String output;
    try {
      Await.until(
          DEMO,
          () -> name + " demo to finish; output so far:\n" + process.output(),
          () -> {
            if (!process.isAlive()) {
              throw new AssertionError(name + " exited early:\n" + process.output());
            }
            return process.output().contains(DONE);
          });
      output = process.output();
      assertSummaryRow(output, "demo.cpu", (long) run * CPU_ROWS, CPU_ROWS);
      assertSummaryRow(output, "demo.events.orders", (long) run * ORDERS, ORDERS);
      assertPointsPerHost(output);
      // The queries it ran, as the skippr sql commands that run them.
      assertThat(output)
          .contains("$ ./skippr sql --lake " + dataDir.resolve("lake") + " - <<'SQL'\n")
          .contains("  from \"demo.cpu\"\n");
      // It keeps running after the demo: the ingest endpoint still answers.
      assertThat(status("http://127.0.0.1:" + ports[3] + "/health")).isEqualTo(200);
      whileRunning.run();
    } finally {
      process.stop();
    }
    assertThat(process.exitCode()).as(process.output()).isZero();
    assertThat(process.output()).contains("skippr local: stopped");
    return output;
  }

  /**
   * A steady stream into a table of its own for {@link #STEADY}: without compaction its files would
   * grow by one per unit (every 2 s); with the demo's merging every 10 s the files in the table
   * level off. Every row lands once, read through the log; a reader that globs the table with
   * DuckDB every ~100 ms meanwhile never reads a row twice, and reads every row once at the end.
   */
  private void steadyLoadKeepsFilesBounded(int[] ports, Path lake) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    URI write = URI.create("http://127.0.0.1:" + ports[3] + "/write?precision=ns");
    Path table = lake.resolve("demo.steady");
    List<Integer> onDisk = new ArrayList<>();
    AtomicLong acknowledged = new AtomicLong();
    GlobSampler glob =
        new GlobSampler("demo.steady", GlobSampler.duckDbGlob(table, "v"), acknowledged::get);
    long start = System.nanoTime();
    long rows = 0;
    long nextSample = 0;
    long baseNs = System.currentTimeMillis() * 1_000_000L;
    while (System.nanoTime() - start < STEADY.toNanos()) {
      StringBuilder body = new StringBuilder();
      for (int i = 0; i < STEADY_BATCH; i++, rows++) {
        body.append("steady,host=h").append(rows % 3).append(" v=").append(rows).append("i ");
        body.append(baseNs + rows).append('\n');
      }
      HttpResponse<String> answer =
          client.send(
              HttpRequest.newBuilder(write)
                  .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(204);
      acknowledged.set(rows);
      long elapsed = System.nanoTime() - start;
      if (elapsed >= nextSample) {
        onDisk.add(Files.exists(table) ? parquetFiles(table).size() : 0);
        nextSample += SAMPLE_EVERY.toNanos();
      }
      Thread.sleep(STEADY_PAUSE.toMillis()); // the client's pace, not a wait for a condition
    }
    long sent = rows;
    Await.until(
        Duration.ofSeconds(60),
        () -> "demo.steady to hold " + sent + " rows",
        () -> lakeRows(lake, "demo.steady") == sent);
    int sampled = glob.samples().size();
    Await.until(
        Duration.ofSeconds(60),
        () -> "a glob of demo.steady to read " + sent + " rows once: " + glob.samples(),
        () ->
            glob.samples().size() > sampled
                && glob.samples()
                    .get(glob.samples().size() - 1)
                    .counts()
                    .equals(new GlobSampler.Counts(sent, sent)));
    glob.close();
    System.out.printf(
        "demo.steady: files on disk every 5 s: %s; %d glob samples, %d failed on a file that"
            + " left the table after the listing%n",
        onDisk, glob.samples().size(), glob.failures().size());
    assertThat(glob.wrong()).as("glob samples that read a row twice").isEmpty();
    assertThat(glob.samples().size())
        .as("glob samples taken while the demo wrote and merged (one every ~100 ms)")
        .isGreaterThan(50);
    // One unit every 2 s makes 45 files in 90 s without merging. With merging: the live files
    // only (a merged file and the units of one 10 s interval); retired ones left the table.
    List<Integer> settled = onDisk.subList(onDisk.size() / 2, onDisk.size());
    assertThat(settled).as("files on disk, sampled every 5 s: " + onDisk).allMatch(n -> n <= 12);
    assertThat(onDisk.get(onDisk.size() - 1))
        .as("files on disk, sampled every 5 s: " + onDisk)
        .isLessThan((int) (STEADY.toSeconds() / 2));
  }

  /** A step of a test that may throw. */
  private interface Step {
    void run() throws Exception;
  }

  /** The summary table's row: {@code demo.cpu | 6000 | 3000 | first | last}. */
  private static void assertSummaryRow(String output, String table, long rows, long thisRun) {
    Matcher row =
        Pattern.compile(
                "(?m)^\\s+" + Pattern.quote(table) + "\\s+\\|\\s+(\\d+)\\s+\\|\\s+(\\d+)\\s+\\|")
            .matcher(output);
    assertThat(row.find()).as("summary row of " + table + " in:\n" + output).isTrue();
    assertThat(Long.parseLong(row.group(1))).as(table + " rows").isEqualTo(rows);
    assertThat(Long.parseLong(row.group(2))).as(table + " rows of this run").isEqualTo(thisRun);
  }

  /** The per-host table: every host of the run with its points. */
  private static void assertPointsPerHost(String output) {
    Matcher row =
        Pattern.compile("(?m)^\\s+(host-\\d\\d)\\s+\\|\\s+\\S+\\s+\\|\\s+(\\d+)\\s+\\|")
            .matcher(output);
    int hosts = 0;
    while (row.find()) {
      hosts++;
      assertThat(row.group(1)).isEqualTo(String.format("host-%02d", hosts));
      assertThat(Integer.parseInt(row.group(2))).as(row.group(1)).isEqualTo(POINTS_PER_HOST);
    }
    assertThat(hosts).as("hosts in:\n" + output).isEqualTo(HOSTS);
  }

  /** Rows of a lake table, counted by the test's own DuckDB over every Parquet file. */
  private static long lakeRows(Path lake, String table) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      return duck.count("select count(*) from ${table:" + table + "}");
    }
  }

  private static List<Path> parquetFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }

  private static int status(String url) throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
