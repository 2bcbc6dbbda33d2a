package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import java.nio.file.Path;
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
 * The lake sink under real SIGKILLs: a broker and a Connect worker run as separate processes, the
 * worker is killed at random moments while it lands half a million orders and restarted each time;
 * the lake then holds every record exactly once, no TP log holds an unresolved intent, and {@code
 * skippr audit} finds the lake, Kafka and the connector's group in agreement.
 *
 * <p>{@code -Dchaos.kills} sets the number of kills (default 5), {@code -Dchaos.seed} replays a
 * run, {@code -Dchaos.perPartition} sets the records per partition (default 170,000), {@code
 * -Dchaos.zombie.perPartition} the backlog per partition of the SIGSTOP test (default 40,000).
 */
class ChaosIT {
  private static final int PARTITIONS = 3;
  private static final String TOPIC = "chaos-orders";
  private static final String CONNECTOR = "chaos-lake";
  private static final String ZOMBIE_TOPIC = "zombie-orders";
  private static final Duration READY = Duration.ofMinutes(2);

  @TempDir Path root;
  private final List<CliProcess> processes = new ArrayList<>();
  private ChaosStack stack;
  private OrderStream orders;

  @AfterEach
  void stopAll() throws InterruptedException {
    if (orders != null) {
      orders.close();
    }
    CliProcess.stopAll(processes);
  }

  @Test
  void sigkilledWorkerLandsEveryRecordExactlyOnce() throws Exception {
    int kills = Integer.getInteger("chaos.kills", 5);
    long perPartition = Long.getLong("chaos.perPartition", 170_000);
    long seed = Long.getLong("chaos.seed", System.nanoTime());
    System.out.println("chaos: seed " + seed + " (replay with -Dchaos.seed=" + seed + ")");
    Random random = new Random(seed);

    stack = ChaosStack.start(root, processes);
    stack.createTopic(TOPIC, PARTITIONS);
    long start = System.nanoTime();
    // The worker's JVM starts while the orders are produced.
    CliProcess worker = stack.startWorker("worker-0", 0);
    stack.produceOrders(TOPIC, PARTITIONS, perPartition);
    System.out.printf(
        "chaos: produced %,d orders in %.1f s%n", PARTITIONS * perPartition, elapsed(start));

    Path lake = root.resolve("lake");
    worker = stack.awaitReady(worker, 0);
    stack.putConnector(0, CONNECTOR, sinkConfig(lake, TOPIC));
    long expected = PARTITIONS * perPartition;
    int midStream = 0;
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      for (int kill = 1; kill <= kills; kill++) {
        // Kill only once this worker has committed a unit of its own (or all is landed), then at
        // a random moment within the next few units.
        long filesAtStart = stack.parquetFiles(lake);
        Await.until(
            READY,
            "worker to commit a unit after its start",
            () ->
                stack.parquetFiles(lake) > filesAtStart || LakeAudit.rows(duck, TOPIC) >= expected);
        long delayMs = random.nextInt(4_000);
        Thread.sleep(delayMs);
        boolean landed = LakeAudit.rows(duck, TOPIC) >= expected;
        worker.kill();
        midStream += landed ? 0 : 1;
        System.out.printf(
            "chaos: %5.1f s kill %d/%d (pid %d) %d ms after its first unit%s%n",
            elapsed(start), kill, kills, worker.pid(), delayMs, landed ? " (all landed)" : "");
        worker = stack.awaitReady(stack.startWorker("worker-" + kill, 0), 0);
      }
    }

    ExactlyOnceAudit.Result audit =
        ExactlyOnceAudit.check(lake, TOPIC, PARTITIONS, perPartition, Duration.ofMinutes(10));
    AuditCli.assertClean(
        root.resolve("logs"), CONNECTOR, stack.restUrl(0), stack.bootstrapServers(), PARTITIONS);
    System.out.printf(
        "chaos: kills survived %d (%d mid-stream), records %,d, duplicates %d, gaps %d, epochs"
            + " claimed %d, %.0f s, seed %d%n",
        kills,
        midStream,
        audit.rows(),
        audit.duplicates(),
        audit.gaps(),
        audit.claims(),
        elapsed(start),
        seed);
  }

  /**
   * A worker frozen with SIGSTOP while its task owns every TP loses them to the other worker; once
   * thawed, its task tries to publish and is fenced off: its worker logs the fencing with the epoch
   * it held, the lake log shows the newer claim, and no entry of its epoch follows that claim.
   */
  @Test
  void frozenWorkerCannotPublishAfterItsTaskMoved() throws Exception {
    long minPerPartition = Long.getLong("chaos.zombie.perPartition", 40_000);
    stack = ChaosStack.start(root, processes);
    stack.createTopic(ZOMBIE_TOPIC, PARTITIONS);
    CliProcess[] workers = {stack.startWorker("worker-a", 0), stack.startWorker("worker-b", 1)};
    // A backlog first (faster than the sink), then a trickle: the task never runs dry.
    orders = OrderStream.start(stack, ZOMBIE_TOPIC, PARTITIONS, 10_000, minPerPartition);
    for (int w = 0; w < workers.length; w++) {
      workers[w] = stack.awaitReady(workers[w], w);
    }
    Path lake = root.resolve("zombie-lake");
    Map<String, String> config = new HashMap<>(sinkConfig(lake, ZOMBIE_TOPIC));
    config.put("tasks.max", "1");
    stack.putConnector(0, "zombie-lake", config);
    ZombieFreeze freeze = new ZombieFreeze(lake, ZOMBIE_TOPIC, PARTITIONS, workers);
    ZombieFreeze.Fencing fencing = freeze.untilFenced(3);

    long perPartition = orders.finish(Duration.ofMinutes(2));
    ExactlyOnceAudit.Result audit =
        ExactlyOnceAudit.check(lake, ZOMBIE_TOPIC, PARTITIONS, perPartition, Duration.ofMinutes(5));
    assertThat(audit.claimsPerPartition()).allSatisfy(c -> assertThat(c).isGreaterThan(1));
    freeze.assertFencedByNewerClaim(fencing);
    AuditCli.assertClean(
        root.resolve("logs"),
        "zombie-lake",
        stack.restUrl(0),
        stack.bootstrapServers(),
        PARTITIONS);
    assertThat(workers[fencing.worker()].isAlive()).as(workers[fencing.worker()].output()).isTrue();
    System.out.printf(
        "chaos: zombie fenced off (epoch %d < %d on partition %d), records %,d, duplicates %d,"
            + " gaps %d%n",
        fencing.epoch(),
        fencing.newerEpoch(),
        fencing.partition(),
        audit.rows(),
        audit.duplicates(),
        audit.gaps());
  }

  private static double elapsed(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  static Map<String, String> sinkConfig(Path lake, String topic) {
    return Map.ofEntries(
        Map.entry("connector.class", "io.skippr.connect.sink.LakeSinkConnector"),
        Map.entry("tasks.max", "2"),
        Map.entry("topics", topic),
        Map.entry("topics.dir", lake.toString()),
        Map.entry("include.kafka.metadata", "true"),
        Map.entry("key.converter", "org.apache.kafka.connect.storage.StringConverter"),
        Map.entry("value.converter", "org.apache.kafka.connect.json.JsonConverter"),
        Map.entry("value.converter.schemas.enable", "true"),
        Map.entry("errors.tolerance", "none"),
        Map.entry("flush.size", "5000"),
        Map.entry("rotate.schedule.interval.ms", "2000"),
        // The audit checks how units tile the offsets; merging is tested in CompactionTest/IT.
        Map.entry("compaction.enabled", "false"),
        Map.entry("store.rocksdb.path", lake.resolveSibling("state").toString()));
  }
}
