package io.skippr.connect.it;

import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's steady load, far below what the stack can take (it measures how the stack holds up,
 * not how fast it is): {@value #LP_CLIENTS} line protocol clients sending {@value #LP_ROWS} rows
 * and {@value #JSON_CLIENTS} JSON clients sending {@value #JSON_ROWS} objects, each a request every
 * {@value #PACE_MS} ms (1,000 rows/s), retrying until they get 204; an NDJSON file of {@value
 * #FILE_LINES} lines (ids from 0 on, one after the other) moved into the file source's directory
 * every {@value #FILE_EVERY_MS} ms; {@value #POLL_RECORDS} records added to the poll API every
 * {@value #POLL_EVERY_MS} ms.
 */
final class SoakLoad implements AutoCloseable {
  static final int LP_CLIENTS = 4;
  static final int LP_ROWS = 200;
  static final int JSON_CLIENTS = 2;
  static final int JSON_ROWS = 100;
  static final long PACE_MS = 1_000;
  static final int FILE_LINES = 500;
  static final long FILE_EVERY_MS = 5_000;
  static final int POLL_RECORDS = 20;
  static final long POLL_EVERY_MS = 2_000;

  final RetryingIngestClient lineProtocol;
  final RetryingIngestClient json;
  private final Path inbox;
  private final Path staging;
  private final PollFixtureApi api;
  private final ScheduledExecutorService feeders =
      Executors.newSingleThreadScheduledExecutor(daemon("soak-feeder"));
  private final AtomicLong lines = new AtomicLong();
  private final List<Throwable> failures = new ArrayList<>();

  SoakLoad(String ingestUrl, Path inbox, Path staging, PollFixtureApi api) {
    RetryingIngestClient.Endpoints endpoint = RetryingIngestClient.single(ingestUrl);
    Duration pace = Duration.ofMillis(PACE_MS);
    this.lineProtocol =
        new RetryingIngestClient(
                RetryingIngestClient.lineProtocol(SoakConnectors.MEASUREMENT, LP_CLIENTS, LP_ROWS),
                LP_CLIENTS,
                LP_ROWS,
                endpoint)
            .paced(pace)
            .countingOnly();
    this.json =
        new RetryingIngestClient(
                RetryingIngestClient.json(SoakConnectors.STREAM), JSON_CLIENTS, JSON_ROWS, endpoint)
            .paced(pace)
            .countingOnly();
    this.inbox = inbox;
    this.staging = staging;
    this.api = api;
  }

  void start() {
    lineProtocol.start();
    json.start();
    feeders.scheduleAtFixedRate(guarded(this::dropFile), 0, FILE_EVERY_MS, TimeUnit.MILLISECONDS);
    feeders.scheduleAtFixedRate(
        guarded(() -> api.add(POLL_RECORDS)), 0, POLL_EVERY_MS, TimeUnit.MILLISECONDS);
  }

  /** Lines written to files so far (ids 0 to this minus one). */
  long fileLines() {
    return lines.get();
  }

  /** Rows that got 204 so far, line protocol and JSON. */
  long acknowledgedRows() {
    return lineProtocol.acknowledgedRows() + json.acknowledgedRows();
  }

  /** Stops the feeders, lets each client finish its request, and fails if any part failed. */
  void finish() throws InterruptedException {
    feeders.shutdown();
    if (!feeders.awaitTermination(1, TimeUnit.MINUTES)) {
      throw new AssertionError("file and poll feeders still running after a minute");
    }
    lineProtocol.finish(Duration.ofMinutes(2));
    json.finish(Duration.ofMinutes(2));
    synchronized (failures) {
      if (!failures.isEmpty()) {
        AssertionError error = new AssertionError("a feeder failed: " + failures.get(0));
        failures.forEach(error::addSuppressed);
        throw error;
      }
    }
  }

  /** Writes the next file elsewhere, then moves it in whole, as an export is dropped. */
  private void dropFile() throws IOException {
    long first = lines.get();
    Path file = staging.resolve(String.format("soak-%012d.ndjson", first));
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (long id = first; id < first + FILE_LINES; id++) {
        out.write(FileSourceConfigs.order(id));
      }
    }
    Files.move(file, inbox.resolve(file.getFileName()), StandardCopyOption.ATOMIC_MOVE);
    lines.addAndGet(FILE_LINES);
  }

  /** Daemon threads of this name: nothing of the soak's own keeps the test JVM alive. */
  static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  private interface Task {
    void run() throws Exception;
  }

  private Runnable guarded(Task task) {
    return () -> {
      try {
        task.run();
      } catch (Exception | AssertionError e) {
        synchronized (failures) {
          failures.add(e);
        }
        throw new IllegalStateException(e); // ends this feeder's schedule
      }
    };
  }

  @Override
  public void close() {
    feeders.shutdownNow();
    lineProtocol.close();
    json.close();
  }
}
