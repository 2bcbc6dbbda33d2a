package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebalance storm under the lake sink: two Connect workers of one group run as separate processes
 * while orders keep flowing into a 6-partition topic. Each round stops worker B with SIGTERM,
 * changes {@code tasks.max} (1 → 3 → 2 → 6 → …) on worker A alone and starts B again; every {@code
 * storm.killEvery}-th round also SIGKILLs a worker (A, then B, …) while the group rebalances for
 * B's return. Each step waits until the tasks run again. The lake then holds every record of the
 * topic exactly once.
 *
 * <p>Six partitions divide evenly among 1, 2, 3 and 6 tasks, so every change of {@code tasks.max}
 * moves partitions between tasks and no task is left idle.
 *
 * <p>{@code -Dstorm.rounds} (default 4), {@code -Dstorm.killEvery} (default 2), {@code
 * -Dstorm.rate} (records a second, default 2500), {@code -Dstorm.perPartition} (records per
 * partition at that rate, then a trickle; default 50,000), {@code -Dstorm.seed} (replays the kill
 * delays).
 */
class RebalanceStormIT {
  private static final int PARTITIONS = 6;
  private static final String TOPIC = "storm-orders";
  private static final String CONNECTOR = "storm-lake";
  private static final int[] TASKS_MAX = {1, 3, 2, 6};
  private static final int FIRST_TASKS_MAX = 2;
  private static final int A = 0;
  private static final int B = 1;
  private static final Duration READY = Duration.ofMinutes(2);

  @TempDir Path root;
  private final List<CliProcess> processes = new ArrayList<>();
  private final CliProcess[] workers = new CliProcess[2];
  private ChaosStack stack;
  private OrderStream orders;
  private Path lake;
  private int started;
  private final long start = System.nanoTime();

  @AfterEach
  void stopAll() throws InterruptedException {
    if (orders != null) {
      orders.close();
    }
    CliProcess.stopAll(processes);
  }

  @Test
  void workersComingAndGoingWhileTasksMaxChangesLandEveryRecordExactlyOnce() throws Exception {
    int rounds = Integer.getInteger("storm.rounds", 4);
    int killEvery = Integer.getInteger("storm.killEvery", 2);
    double rate = Double.parseDouble(System.getProperty("storm.rate", "2500"));
    long minPerPartition = Long.getLong("storm.perPartition", 50_000);
    long seed = Long.getLong("storm.seed", System.nanoTime());
    System.out.println("storm: seed " + seed + " (replay with -Dstorm.seed=" + seed + ")");
    Random random = new Random(seed);
    stack = ChaosStack.start(root, processes);
    stack.createTopic(TOPIC, PARTITIONS);
    startWorker(A);
    startWorker(B);
    awaitReady(A);
    awaitReady(B);
    lake = root.resolve("lake");
    Map<String, String> config = new HashMap<>(ChaosIT.sinkConfig(lake, TOPIC));
    config.put("tasks.max", String.valueOf(FIRST_TASKS_MAX));
    stack.putConnector(A, CONNECTOR, config);
    Await.until(READY, () -> "the first tasks; " + describe(A), () -> settled(FIRST_TASKS_MAX));
    orders = OrderStream.start(stack, TOPIC, PARTITIONS, rate, minPerPartition);
    awaitProgress("the start");
    say("both workers run %d tasks", FIRST_TASKS_MAX);

    List<Integer> tasksMax = new ArrayList<>(List.of(FIRST_TASKS_MAX));
    int kills = 0;
    for (int round = 1; round <= rounds; round++) {
      int tasks = TASKS_MAX[(round - 1) % TASKS_MAX.length];
      workers[B].terminate(Duration.ofMinutes(1));
      awaitSettled(tasksMax.get(tasksMax.size() - 1), "SIGTERM to B");
      config.put("tasks.max", String.valueOf(tasks));
      stack.putConnector(A, CONNECTOR, config);
      tasksMax.add(tasks);
      awaitSettled(tasks, "tasks.max=" + tasks + " on A alone");
      startWorker(B);
      awaitReady(B);
      String kill = "";
      if (killEvery > 0 && round % killEvery == 0) {
        // Alternate the victim: A first (the REST calls go to it), then B.
        kill = killDuringRebalance((round / killEvery) % 2 == 1 ? A : B, random);
        kills++;
      }
      awaitSettled(tasks, "B's restart" + kill);
      awaitProgress("round " + round);
      say(
          "round %d/%d: B stopped, tasks.max=%d, B started%s; settled, %,d records per partition"
              + " sent",
          round, rounds, tasks, kill, orders.sentPerPartition());
    }

    long perPartition = orders.finish(Duration.ofMinutes(5));
    assertThat(stack.endOffsets(TOPIC, PARTITIONS))
        .as("end offsets of the topic")
        .isEqualTo(Collections.nCopies(PARTITIONS, perPartition));
    ExactlyOnceAudit.Result audit =
        ExactlyOnceAudit.check(lake, TOPIC, PARTITIONS, perPartition, Duration.ofMinutes(10));
    // Every change of tasks.max restarts every task, so each TP is claimed again every round.
    assertThat(audit.claimsPerPartition()).allSatisfy(c -> assertThat(c).isGreaterThan(rounds));
    say(
        "rounds %d (tasks.max %s, %d graceful restarts of B, %d SIGKILLs), records %,d,"
            + " duplicates %d, gaps %d, epochs claimed %d, seed %d",
        rounds,
        tasksMax,
        rounds,
        kills,
        audit.rows(),
        audit.duplicates(),
        audit.gaps(),
        audit.claims(),
        seed);
  }

  private void say(String format, Object... args) {
    System.out.printf("storm: %5.1f s %s%n", elapsed(), String.format(format, args));
  }

  /** SIGKILL while the group rebalances for B's return, and a new process in its place. */
  private String killDuringRebalance(int victim, Random random) throws Exception {
    long delayMs = random.nextInt(1_000);
    Thread.sleep(delayMs);
    String seen = describe(1 - victim);
    workers[victim].kill();
    startWorker(victim);
    awaitReady(victim);
    return String.format(", SIGKILL %s %d ms after (saw %s)", name(victim), delayMs, seen);
  }

  private void startWorker(int worker) throws Exception {
    workers[worker] = stack.startWorker("worker-" + name(worker) + "-" + started++, worker);
  }

  private void awaitReady(int worker) throws Exception {
    workers[worker] = stack.awaitReady(workers[worker], worker);
  }

  private void awaitSettled(int tasks, String after) {
    Await.until(
        READY,
        () -> tasks + " tasks RUNNING after " + after + "; " + describe(A) + " / " + describe(B),
        () -> settled(tasks));
  }

  private void awaitProgress(String after) {
    long before = stack.parquetFiles(lake);
    Await.until(
        READY,
        () -> "a unit committed after " + after + "; files " + before,
        () -> stack.parquetFiles(lake) > before);
  }

  /**
   * Every running worker answers, and each reports the connector and exactly {@code tasks} tasks
   * RUNNING on running workers.
   */
  private boolean settled(int tasks) {
    for (int worker : new int[] {A, B}) {
      if (!workers[worker].isAlive()) {
        continue;
      }
      JsonNode status = stack.status(worker, CONNECTOR);
      if (status == null
          || !status.path("connector").path("state").asText().equals("RUNNING")
          || status.path("tasks").size() != tasks) {
        return false;
      }
      for (JsonNode task : status.path("tasks")) {
        String on = task.path("worker_id").asText();
        if (!task.path("state").asText().equals("RUNNING") || !isLiveWorker(on)) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean isLiveWorker(String workerId) {
    return (workerId.equals(workerId(A)) && workers[A].isAlive())
        || (workerId.equals(workerId(B)) && workers[B].isAlive());
  }

  private String workerId(int worker) {
    return "127.0.0.1:" + stack.restPort(worker);
  }

  /** The connector's status as one worker reports it, short: {@code 0:RUNNING@A 1:…}. */
  private String describe(int worker) {
    JsonNode status = stack.status(worker, CONNECTOR);
    if (status == null) {
      return name(worker) + " does not answer";
    }
    StringBuilder text =
        new StringBuilder("connector " + status.path("connector").path("state").asText());
    for (JsonNode task : status.path("tasks")) {
      String on = task.path("worker_id").asText();
      text.append(' ')
          .append(task.path("id").asInt())
          .append(':')
          .append(task.path("state").asText())
          .append('@')
          .append(on.equals(workerId(A)) ? "A" : on.equals(workerId(B)) ? "B" : on);
    }
    return text.toString();
  }

  private static String name(int worker) {
    return worker == A ? "a" : "b";
  }

  private double elapsed() {
    return (System.nanoTime() - start) / 1e9;
  }
}
