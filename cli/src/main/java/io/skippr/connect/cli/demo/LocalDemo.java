package io.skippr.connect.cli.demo;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * {@code skippr local --demo}: once the worker is ready, registers an HTTP ingest source and a lake
 * sink, pushes a small generated load through HTTP, waits until the lake has committed every row,
 * and prints what DuckDB reads back.
 */
public final class LocalDemo {
  private static final Duration CONNECTOR_TIMEOUT = Duration.ofMinutes(1);
  private static final Duration LAKE_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration REPORT_TIMEOUT = Duration.ofSeconds(30);

  /** The demo's settings: the port the HTTP ingest connector listens on (127.0.0.1). */
  public record Options(int ingestPort) {}

  private final Options options;
  private final String restUrl;
  private final String bootstrapServers;
  private final ConnectRest rest;
  private final Path dataDir;
  private final Path lake;
  private final Path pluginDir;
  private final Poll poll;
  private final PrintStream out;
  private final IngestClient ingest;

  public LocalDemo(
      Options options,
      String restUrl,
      String bootstrapServers,
      Path dataDir,
      Path pluginDir,
      BooleanSupplier stopping,
      PrintStream out) {
    this.options = options;
    this.restUrl = restUrl;
    this.bootstrapServers = bootstrapServers;
    this.rest = new ConnectRest(restUrl);
    this.dataDir = dataDir.toAbsolutePath().normalize();
    this.lake = this.dataDir.resolve("lake");
    this.pluginDir = pluginDir;
    this.poll = new Poll(stopping);
    this.out = out;
    this.ingest = new IngestClient(options.ingestPort());
  }

  /**
   * Runs the demo to its end.
   *
   * @throws DemoException when a step fails (with the reason) or a stop was requested
   */
  public void run() {
    registerConnectors();
    DemoLoad load = new DemoLoad(Instant.now());
    say("run " + load.run() + ": every row it pushes carries run = '" + load.run() + "'");
    long pushStarted = System.nanoTime();
    push(load);
    try (LakeSources sources = new LakeSources(lake, pluginDir);
        DuckDb db = new DuckDb()) {
      Map<String, LakeSources.Source> live = awaitLake(sources, db, load.run());
      say(
          String.format(
              Locale.ROOT,
              "the lake committed all %d rows of %s %.1f s after the first write; DuckDB reads:",
              DemoLoad.CPU_ROWS + DemoLoad.ORDERS,
              load.run(),
              seconds(pushStarted)));
      live.values().stream()
          .filter(source -> source.unlisted() > 0)
          .forEach(
              source ->
                  say(
                      source.table()
                          + ": "
                          + source.unlisted()
                          + " file(s) on disk are not in the lake log (left by a crash; the sink"
                          + " removes them when it next opens the partition): reading the "
                          + source.liveFiles()
                          + " live files only"));
      out.print(report(sources, live, db, load.run()));
      out.flush();
    }
    DemoHints.print(out, ingest.base(), restUrl, lake);
    say("done; the stack keeps running (Ctrl-C stops it)");
  }

  /**
   * The report's text. A merge that moves a file between listing the files and a query makes the
   * query fail (it never reads a row twice): then the files are listed and read again.
   */
  private String report(
      LakeSources sources, Map<String, LakeSources.Source> live, DuckDb db, String run) {
    AtomicReference<Map<String, LakeSources.Source>> current = new AtomicReference<>(live);
    AtomicReference<String> text = new AtomicReference<>();
    poll.until(
        REPORT_TIMEOUT,
        "DuckDB to read the lake's tables",
        () -> {
          ByteArrayOutputStream buffer = new ByteArrayOutputStream();
          try (PrintStream report = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            new DemoReport(current.get(), run).print(db, report);
          } catch (SQLException e) {
            current.set(sources.sources(DemoReport.TABLES));
            throw e;
          }
          text.set(buffer.toString(StandardCharsets.UTF_8));
          return true;
        });
    return text.get();
  }

  private void registerConnectors() {
    DemoTopics.create(bootstrapServers, DemoReport.TABLES);
    Map<String, String> source = DemoConnectors.source(options.ingestPort());
    Map<String, String> sink = DemoConnectors.sink(lake, dataDir.resolve("state"));
    Map<String, String> eventsSink = DemoConnectors.eventsSink(lake, dataDir.resolve("state"));
    say(
        "connector "
            + DemoConnectors.SOURCE
            + " (HTTP ingest on "
            + ingest.base()
            + "): "
            + describe(rest.ensure(DemoConnectors.SOURCE, source)));
    say(
        "connector "
            + DemoConnectors.SINK
            + " (lake sink into "
            + lake
            + "): "
            + describe(rest.ensure(DemoConnectors.SINK, sink)));
    say(
        "connector "
            + DemoConnectors.EVENTS_SINK
            + " (lake sink of the JSON streams into "
            + lake
            + "): "
            + describe(rest.ensure(DemoConnectors.EVENTS_SINK, eventsSink)));
    for (String name :
        new String[] {DemoConnectors.SOURCE, DemoConnectors.SINK, DemoConnectors.EVENTS_SINK}) {
      poll.until(CONNECTOR_TIMEOUT, "connector " + name + " to run", () -> rest.running(name));
    }
    poll.until(
        CONNECTOR_TIMEOUT,
        "HTTP ingest to answer on " + ingest.base() + "/health",
        ingest::healthy);
  }

  private static String describe(ConnectRest.Outcome outcome) {
    return switch (outcome) {
      case CREATED -> "created";
      case UPDATED -> "config updated";
      case UNCHANGED -> "already registered, config unchanged";
    };
  }

  private void push(DemoLoad load) {
    long started = System.nanoTime();
    List<DemoLoad.Request> cpu = load.cpuRequests();
    cpu.forEach(ingest::write);
    say(
        String.format(
            Locale.ROOT,
            "pushed %d rows of measurement cpu (%d hosts, line protocol, %d requests to /write and"
                + " /api/v2/write, all 204) in %.1f s",
            DemoLoad.CPU_ROWS,
            DemoLoad.HOSTS,
            cpu.size(),
            seconds(started)));
    started = System.nanoTime();
    List<DemoLoad.Request> orders = load.orderRequests();
    orders.forEach(ingest::write);
    say(
        String.format(
            Locale.ROOT,
            "pushed %d orders (JSON, %d requests to /ingest/orders, all 204) in %.1f s",
            DemoLoad.ORDERS,
            orders.size(),
            seconds(started)));
  }

  private static double seconds(long sinceNanos) {
    return (System.nanoTime() - sinceNanos) / 1e9;
  }

  /** Waits until each table holds exactly the rows this run pushed; returns the sources read. */
  private Map<String, LakeSources.Source> awaitLake(LakeSources sources, DuckDb db, String run) {
    Map<String, Long> pushed =
        Map.of(DemoReport.CPU, (long) DemoLoad.CPU_ROWS, DemoReport.ORDERS, (long) DemoLoad.ORDERS);
    say("waiting for the lake sink to commit them to " + lake);
    AtomicReference<Map<String, LakeSources.Source>> last = new AtomicReference<>();
    poll.until(
        LAKE_TIMEOUT,
        "the lake to hold every pushed row of " + run,
        () -> {
          Map<String, LakeSources.Source> live = sources.sources(DemoReport.TABLES);
          for (String table : DemoReport.TABLES) {
            LakeSources.Source source = live.get(table);
            if (source == null) {
              return false;
            }
            long rows = db.count(DemoReport.runCount(source, run));
            if (rows > pushed.get(table)) {
              throw new DemoException(
                  table
                      + " holds "
                      + rows
                      + " rows of "
                      + run
                      + " but "
                      + pushed.get(table)
                      + " were pushed");
            }
            if (rows < pushed.get(table)) {
              return false;
            }
          }
          last.set(live);
          return true;
        });
    return last.get();
  }

  private void say(String line) {
    out.println("skippr local: demo: " + line);
    out.flush();
  }
}
