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
import java.util.TreeSet;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker with the skippr-connect-iceberg plugin frozen (SIGSTOP) while its task owns every TP
 * loses them to the other worker; thawed, its task is fenced off in the lake, and its registrar
 * registers nothing for the lost TP after the newer owner's first registration of it: no snapshot
 * carries the zombie's epoch for that TP after one that carries the newer epoch. The table ends
 * with exactly the lake log's live files, none twice.
 *
 * <p>{@code -Dchaos.zombie.perPartition} sets the backlog per partition (default 40,000).
 */
class IcebergZombieIT {
  private static final int PARTITIONS = 3;
  private static final String TOPIC = "ice-zombie";

  @TempDir Path root;
  private final List<CliProcess> processes = new ArrayList<>();
  private OrderStream orders;

  @AfterEach
  void stopAll() throws InterruptedException {
    if (orders != null) {
      orders.close();
    }
    CliProcess.stopAll(processes);
  }

  @Test
  void aThawedZombieRegistersNothingAfterLosingItsTps() throws Exception {
    long minPerPartition = Long.getLong("chaos.zombie.perPartition", 40_000);
    ChaosStack stack = ChaosStack.start(root, processes);
    Path plugins = Path.of(System.getProperty("skippr.iceberg.plugin.dir"));
    // The catalog's JDBC driver on the worker's class path, as a user adds one.
    Path sqlite =
        Path.of(org.sqlite.JDBC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    stack.withPlugins(plugins, List.of(sqlite));
    stack.createTopic(TOPIC, PARTITIONS);
    CliProcess[] workers = {stack.startWorker("worker-a", 0), stack.startWorker("worker-b", 1)};
    orders = OrderStream.start(stack, TOPIC, PARTITIONS, 10_000, minPerPartition);
    for (int w = 0; w < workers.length; w++) {
      workers[w] = stack.awaitReady(workers[w], w);
    }
    Path lake = root.resolve("lake");
    IcebergTables tables = new IcebergTables(root.resolve("iceberg"), Map.of());
    Map<String, String> config = new HashMap<>(ChaosIT.sinkConfig(lake, TOPIC));
    config.put("tasks.max", "1");
    config.put("compaction.enabled", "false");
    config.putAll(
        tables.connectorKeys(
            "file:" + root.resolve("iceberg/warehouse"),
            Map.of("io-impl", "io.skippr.connect.iceberg.io.LocalFileIO")));
    config.put("iceberg.commit.interval.ms", "200");
    stack.putConnector(0, "ice-zombie-lake", config);
    ZombieFreeze freeze = new ZombieFreeze(lake, TOPIC, PARTITIONS, workers);
    ZombieFreeze.Fencing fencing = freeze.untilFenced(3);

    long perPartition = orders.finish(Duration.ofMinutes(2));
    ExactlyOnceAudit.Result audit =
        ExactlyOnceAudit.check(lake, TOPIC, PARTITIONS, perPartition, Duration.ofMinutes(5));
    freeze.assertFencedByNewerClaim(fencing);
    TreeSet<String> live = new TreeSet<>();
    LakeManifest.liveFiles(new LocalLakeStorage(lake))
        .getOrDefault(TOPIC, List.of())
        .forEach(file -> live.add(file.key()));
    Await.until(
        Duration.ofMinutes(3),
        () -> "the table to hold the " + live.size() + " live files",
        () -> keys(tables, lake).equals(live));

    Table table = tables.table(TOPIC);
    assertThat(IcebergTables.currentFiles(table)).doesNotHaveDuplicates();
    assertThat(IcebergTables.positions(table)).hasSize((int) audit.rows());
    String tp = TOPIC + "+" + fencing.partition();
    boolean newerSeen = false;
    int newer = 0;
    for (Snapshot snapshot : IcebergTables.snapshots(table)) {
      Long epoch = epochs(snapshot).get(tp);
      if (epoch == null) {
        continue;
      }
      if (epoch >= fencing.newerEpoch()) {
        newerSeen = true;
        newer++;
      }
      assertThat(newerSeen && epoch < fencing.newerEpoch())
          .as("snapshot %s registers epoch %d of %s after epoch %d", snapshot, epoch, tp, newer)
          .isFalse();
    }
    assertThat(newer).as("snapshots of the newer owner of " + tp).isPositive();
    System.out.printf(
        "iceberg zombie: fenced off (epoch %d < %d on partition %d), %,d records, %d live files"
            + " registered once each, %d snapshots of the newer owner%n",
        fencing.epoch(),
        fencing.newerEpoch(),
        fencing.partition(),
        audit.rows(),
        live.size(),
        newer);
  }

  /** {@code topic+p} → epoch, from the snapshot's {@code skippr.epochs}. */
  private static Map<String, Long> epochs(Snapshot snapshot) {
    Map<String, Long> epochs = new HashMap<>();
    String marks = snapshot.summary().get("skippr.epochs");
    if (marks == null || marks.isEmpty()) {
      return epochs;
    }
    for (String pair : marks.split(",")) {
      int eq = pair.lastIndexOf('=');
      epochs.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
    }
    return epochs;
  }

  private static TreeSet<String> keys(IcebergTables tables, Path lake) {
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
}
