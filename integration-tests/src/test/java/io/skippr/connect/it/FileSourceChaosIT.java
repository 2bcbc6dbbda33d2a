package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file source under real SIGKILLs: a broker and a Connect worker run as separate processes
 * ({@code skippr local}, exactly-once source support on), the worker is killed while the source is
 * in the middle of a large NDJSON file and restarted each time; the lake (read_committed) then
 * holds every line exactly once, and {@code skippr audit} finds no gap between its units (the
 * transaction markers between them hold no record).
 *
 * <p>{@code -Dchaos.file.kills} sets the number of kills (default 3), {@code -Dchaos.file.lines}
 * the lines of the file (default 600,000), {@code -Dchaos.seed} replays a run.
 */
class FileSourceChaosIT {
  private static final String TOPIC = "chaos-file-orders";
  private static final int PARTITIONS = 2;
  private static final Duration LAND = Duration.ofMinutes(5);

  @TempDir Path root;
  private final List<CliProcess> processes = new ArrayList<>();

  @AfterEach
  void stopAll() throws InterruptedException {
    CliProcess.stopAll(processes);
  }

  @Test
  void sigkilledWorkerMidFileLandsEveryLineExactlyOnce() throws Exception {
    int kills = Integer.getInteger("chaos.file.kills", 3);
    long lines = Long.getLong("chaos.file.lines", 600_000);
    long seed = Long.getLong("chaos.seed", System.nanoTime());
    System.out.println("file chaos: seed " + seed + " (replay with -Dchaos.seed=" + seed + ")");
    Random random = new Random(seed);
    Path inbox = Files.createDirectories(root.resolve("inbox"));
    writeOrders(inbox.resolve("orders.ndjson"), lines);

    ChaosStack stack = ChaosStack.start(root, processes);
    stack.createTopic(TOPIC, PARTITIONS);
    CliProcess worker = stack.awaitReady(stack.startWorker("worker-0", 0), 0);
    Path lake = root.resolve("lake");
    Map<String, String> sink = new HashMap<>(FileSourceConfigs.sink(lake, TOPIC, false));
    sink.put("consumer.override.session.timeout.ms", "6000");
    stack.putConnector(0, "chaos-file-lake", sink);
    stack.putConnector(
        0,
        "chaos-files",
        FileSourceConfigs.source(
            inbox,
            "ndjson",
            TOPIC,
            "tasks.max",
            "1",
            "file.batch.max.records",
            "2000",
            "state.mirror",
            "on",
            "store.rocksdb.path",
            root.resolve("file-state").toString()));

    int midFile = 0;
    for (int kill = 1; kill <= kills; kill++) {
      long before = produced(stack);
      Await.until(
          Duration.ofMinutes(2),
          "the source to send records after the worker started",
          () -> produced(stack) > before + 5_000);
      Thread.sleep(random.nextInt(1_500));
      long at = produced(stack);
      worker.kill();
      boolean mid = at < lines;
      midFile += mid ? 1 : 0;
      System.out.printf(
          "file chaos: kill %d/%d (pid %d) at about %,d of %,d lines%s%n",
          kill, kills, worker.pid(), at, lines, mid ? "" : " (file already sent)");
      if (!mid) {
        break;
      }
      worker = stack.awaitReady(stack.startWorker("worker-" + kill, 0), 0);
    }
    if (!worker.isAlive()) {
      worker = stack.awaitReady(stack.startWorker("worker-last", 0), 0);
    }
    assertThat(midFile)
        .as(
            "kills that hit the source mid-file (raise -Dchaos.file.lines if the file is sent too fast)")
        .isPositive();

    try (DuckDbLake duck = new DuckDbLake(lake)) {
      Await.until(
          LAND,
          () -> "the lake to hold " + lines + " rows; it has " + rows(duck),
          () -> rows(duck) >= lines);
      assertThat(duck.count("select count(*) from ${table:" + TOPIC + "}")).isEqualTo(lines);
      assertThat(duck.count("select count(distinct id) from ${table:" + TOPIC + "}"))
          .isEqualTo(lines);
      assertThat(duck.count("select max(id) from ${table:" + TOPIC + "}")).isEqualTo(lines - 1);
    }
    AuditCli.assertClean(
        root.resolve("logs"),
        "chaos-file-lake",
        stack.restUrl(0),
        stack.bootstrapServers(),
        PARTITIONS);
    System.out.printf(
        "file chaos: %d kills, %d mid-file, %,d lines landed exactly once, seed %d%n",
        kills, midFile, lines, seed);
  }

  /** Offsets the topic's partitions reached: records, aborted ones and transaction markers. */
  private static long produced(ChaosStack stack) {
    try {
      return stack.endOffsets(TOPIC, PARTITIONS).stream().mapToLong(Long::longValue).sum();
    } catch (Exception e) {
      return 0;
    }
  }

  private static long rows(DuckDbLake duck) {
    try {
      return LakeAudit.rows(duck, TOPIC);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  private static void writeOrders(Path file, long lines) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (long id = 0; id < lines; id++) {
        out.write(FileSourceConfigs.order(id));
      }
    }
    Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
  }
}
