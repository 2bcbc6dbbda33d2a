package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg registration under real SIGKILLs: a broker and a Connect worker with the
 * skippr-connect-iceberg plugin run as separate processes; the worker is killed at random moments
 * while it lands orders and registers them every 200 ms (so kills fall between lake commits and
 * Iceberg commits), and restarted each time. The table's current files are then exactly the files
 * the lake log lists as live, none twice and none missing, and Iceberg's reader sees every record
 * once.
 *
 * <p>{@code -Dchaos.kills} sets the number of kills (default 5), {@code -Dchaos.seed} replays a
 * run, {@code -Dchaos.iceberg.perPartition} the records per partition (default 60,000).
 */
class IcebergChaosIT {
  private static final int PARTITIONS = 3;
  private static final String TOPIC = "ice-chaos";
  private static final String CONNECTOR = "ice-chaos-lake";
  private static final Duration READY = Duration.ofMinutes(2);

  @TempDir Path root;
  private final List<CliProcess> processes = new ArrayList<>();

  @AfterEach
  void stopAll() throws InterruptedException {
    CliProcess.stopAll(processes);
  }

  @Test
  void sigkilledWorkersRegisterEveryCommittedFileOnce() throws Exception {
    int kills = Integer.getInteger("chaos.kills", 5);
    long perPartition = Long.getLong("chaos.iceberg.perPartition", 60_000);
    long seed = Long.getLong("chaos.seed", System.nanoTime());
    System.out.println("iceberg chaos: seed " + seed + " (replay with -Dchaos.seed=" + seed + ")");
    Random random = new Random(seed);

    ChaosStack stack = ChaosStack.start(root, processes);
    // The catalog's JDBC driver on the worker's class path, as a user adds one.
    Path sqlite =
        Path.of(org.sqlite.JDBC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path plugins = Path.of(System.getProperty("skippr.iceberg.plugin.dir"));
    stack.withPlugins(plugins, List.of(sqlite));
    stack.createTopic(TOPIC, PARTITIONS);
    long start = System.nanoTime();
    CliProcess worker = stack.startWorker("worker-0", 0);
    stack.produceOrders(TOPIC, PARTITIONS, perPartition);

    Path lake = root.resolve("lake");
    IcebergTables tables = new IcebergTables(root.resolve("iceberg"), Map.of());
    Map<String, String> config = new HashMap<>(ChaosIT.sinkConfig(lake, TOPIC));
    config.put("compaction.enabled", "false"); // the table must follow the commits alone
    config.putAll(
        tables.connectorKeys(
            "file:" + root.resolve("iceberg/warehouse"),
            Map.of("io-impl", "io.skippr.connect.iceberg.io.LocalFileIO")));
    config.put("iceberg.commit.interval.ms", "200");
    worker = stack.awaitReady(worker, 0);
    stack.putConnector(0, CONNECTOR, config);
    long expected = PARTITIONS * perPartition;
    for (int kill = 1; kill <= kills; kill++) {
      long filesAtStart = stack.parquetFiles(lake);
      Await.until(
          READY,
          "worker to commit a unit after its start",
          () -> stack.parquetFiles(lake) > filesAtStart);
      long delayMs = random.nextInt(2_000);
      Thread.sleep(delayMs);
      worker.kill();
      System.out.printf(
          "iceberg chaos: %5.1f s kill %d/%d (pid %d) %d ms after its first unit%n",
          elapsed(start), kill, kills, worker.pid(), delayMs);
      worker = stack.awaitReady(stack.startWorker("worker-" + kill, 0), 0);
    }

    ExactlyOnceAudit.Result audit =
        ExactlyOnceAudit.check(lake, TOPIC, PARTITIONS, perPartition, Duration.ofMinutes(10));
    assertThat(audit.rows()).isEqualTo(expected);
    TreeSet<String> committed = new TreeSet<>();
    LakeManifest.liveFiles(new LocalLakeStorage(lake))
        .getOrDefault(TOPIC, List.of())
        .forEach(file -> committed.add(file.key()));
    Await.until(
        Duration.ofMinutes(3),
        () -> "the table to hold the " + committed.size() + " committed files",
        () -> tableKeys(tables, lake).equals(committed));

    Table table = tables.table(TOPIC);
    List<String> files = IcebergTables.currentFiles(table);
    assertThat(files).doesNotHaveDuplicates();
    assertThat(tableKeys(tables, lake)).isEqualTo(committed);
    List<String> seen = IcebergTables.positions(table);
    assertThat(seen).hasSize((int) expected);
    assertThat(new TreeSet<>(seen)).isEqualTo(IcebergTables.expected(PARTITIONS, perPartition));
    System.out.printf(
        "iceberg chaos: %d kills, %,d records, %d files committed and registered once each,"
            + " %d snapshots, %.0f s, seed %d%n",
        kills,
        seen.size(),
        committed.size(),
        IcebergTables.snapshots(table).size(),
        elapsed(start),
        seed);
  }

  /** The lake keys of the table's current files; empty while the table does not exist. */
  private static TreeSet<String> tableKeys(IcebergTables tables, Path lake) {
    TreeSet<String> keys = new TreeSet<>();
    Table table = tables.table(TOPIC);
    if (table == null) {
      return keys;
    }
    try {
      for (String file : IcebergTables.currentFiles(table)) {
        keys.add(lake.relativize(Path.of(file.replaceFirst("^file:", ""))).toString());
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return keys;
  }

  private static double elapsed(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
