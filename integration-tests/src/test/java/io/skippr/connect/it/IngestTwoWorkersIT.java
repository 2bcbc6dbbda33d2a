package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DynaliteServer;
import io.skippr.connect.testkit.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP ingest with {@code tasks.max=2} on two exactly-once workers (separate processes), each task
 * serving {@code server.port} on its own worker. The two "hosts" are 127.0.0.1 and 127.0.0.2: the
 * connector binds {@code ${env:SKIPPR_INGEST_ADDRESS}}, which each worker resolves from its own
 * environment. The catalog is in a DynamoDB-compatible store, so a field's type set through one
 * worker holds at the other. Clients spread over both and retry at the other one on failure; worker
 * B is SIGKILLed and started again under load, gets its task back once Connect's scheduled
 * rebalance delay has passed, and every acknowledged row is a committed record.
 */
class IngestTwoWorkersIT {
  private static final String CONNECTOR = "two-worker-ingest";
  private static final String MEASUREMENT = "spread";
  private static final String TOPIC = "ingest." + MEASUREMENT;
  private static final String[] ADDRESSES = {"127.0.0.1", "127.0.0.2"};
  private static final Duration READY = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Short sessions, and a scheduled rebalance delay longer than a worker's restart: Connect keeps
   * the departed worker's task unassigned for the delay, then gives it to a worker that joined
   * meanwhile — the restarted one — instead of to the worker that already serves the port.
   */
  private static final List<String> WORKER_PROPERTIES =
      List.of(
          "session.timeout.ms=6000",
          "heartbeat.interval.ms=1000",
          "scheduled.rebalance.max.delay.ms=45000",
          "consumer.session.timeout.ms=6000",
          "consumer.heartbeat.interval.ms=1000");

  @TempDir Path root;
  private final List<CliProcess> processes = new ArrayList<>();
  private DynaliteServer dynalite;
  private RetryingIngestClient clients;

  @AfterEach
  void stopAll() throws InterruptedException {
    if (clients != null) {
      clients.close();
    }
    CliProcess.stopAll(processes);
    if (dynalite != null) {
      dynalite.close();
    }
  }

  @Test
  void clientsSpreadOverTwoWorkersKeepEveryAcknowledgedRowWhileOneRestarts() throws Exception {
    dynalite = DynaliteServer.start(root.resolve("dynalite"));
    ChaosStack stack = ChaosStack.start(root, processes);
    int port = FreePorts.one();
    List<String> urls = List.of(url(0, port), url(1, port));
    CliProcess a = stack.startWorker("worker-a", 0, WORKER_PROPERTIES, env(0));
    CliProcess b = stack.startWorker("worker-b", 1, WORKER_PROPERTIES, env(1));
    a = stack.awaitReady(a, 0);
    b = stack.awaitReady(b, 1);
    stack.putConnector(0, CONNECTOR, ingestConfig(port));
    awaitTasksOnBothWorkers(stack);
    urls.forEach(IngestTwoWorkersIT::awaitAccepting);

    // The catalog is shared: a type fixed through worker A is refused through worker B.
    assertThat(post(urls.get(0), "shared v=1i 1").statusCode()).isEqualTo(204);
    HttpResponse<String> conflict = post(urls.get(1), "shared v=1.5 2");
    assertThat(conflict.statusCode()).isEqualTo(400);
    assertThat(conflict.body()).contains("already has it as an integer field");

    clients = new RetryingIngestClient(MEASUREMENT, 8, 200, RetryingIngestClient.spread(urls));
    clients.start();
    Await.until(READY, "rows acknowledged", () -> clients.acknowledgedRows() >= 20_000);
    b.kill();
    long acknowledgedAtKill = clients.acknowledgedRows();
    Await.until(
        READY,
        "rows acknowledged by worker A alone",
        () -> clients.acknowledgedRows() >= acknowledgedAtKill + 10_000);
    b = stack.awaitReady(stack.startWorker("worker-b-again", 1, WORKER_PROPERTIES, env(1)), 1);
    awaitBothServingRestartingFailed(stack, urls);
    awaitTasksOnBothWorkers(stack);
    long acknowledgedAtReturn = clients.acknowledgedRows();
    Await.until(
        READY,
        "rows acknowledged after worker B came back",
        () -> clients.acknowledgedRows() >= acknowledgedAtReturn + 20_000);
    clients.finish(Duration.ofMinutes(2));

    Set<String> committed = committedRows(stack.bootstrapServers());
    Set<String> lost = new HashSet<>(clients.acknowledged());
    lost.removeAll(committed);
    assertThat(lost).as("acknowledged rows that are no committed record").isEmpty();
    System.out.printf(
        "two workers: %,d rows acknowledged (%,d attempts, %,d retries), %,d distinct rows"
            + " committed; worker B killed at %,d and back at %,d acknowledged rows%n",
        clients.acknowledgedRows(),
        clients.attempts(),
        clients.retries(),
        committed.size(),
        acknowledgedAtKill,
        acknowledgedAtReturn);
  }

  private static Map<String, String> env(int worker) {
    Map<String, String> env = new HashMap<>();
    env.put("SKIPPR_INGEST_ADDRESS", ADDRESSES[worker]);
    env.put("AWS_ACCESS_KEY_ID", "test");
    env.put("AWS_SECRET_ACCESS_KEY", "test");
    env.put("AWS_REGION", "us-east-1");
    return env;
  }

  private static String url(int worker, int port) {
    return "http://" + ADDRESSES[worker] + ":" + port;
  }

  private Map<String, String> ingestConfig(int port) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", "2");
    config.put("server.bind.address", "${env:SKIPPR_INGEST_ADDRESS}");
    config.put("server.port", Integer.toString(port));
    config.put("topic.prefix", "ingest.");
    config.put("exactly.once.support", "required");
    config.put("transaction.boundary", "connector");
    config.put("store.type", "dynamodb");
    config.put("store.name", "ingest-catalog");
    config.put("store.dynamodb.endpoint", dynalite.endpoint().toString());
    config.put("store.dynamodb.region", "us-east-1");
    config.put("store.dynamodb.create.table", "true");
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "3");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    return config;
  }

  /** Both tasks RUNNING, on two different workers. */
  private static void awaitTasksOnBothWorkers(ChaosStack stack) {
    Await.until(
        READY,
        () -> "both tasks running on different workers: " + stack.status(0, CONNECTOR),
        () -> {
          JsonNode status = stack.status(0, CONNECTOR);
          if (status == null || status.path("tasks").size() != 2) {
            return false;
          }
          Set<String> workers = new HashSet<>();
          for (JsonNode task : status.path("tasks")) {
            if (!task.path("state").asText().equals("RUNNING")) {
              return false;
            }
            workers.add(task.path("worker_id").asText());
          }
          return workers.size() == 2;
        });
  }

  /**
   * Both workers serve again: each address answers {@code /health} ready. The connector's status
   * alone cannot tell: the killed worker's task stays RUNNING there until another worker reports on
   * it, and worker B comes back under the same worker id. When worker B led the group, the new
   * leader treats B's task as new and puts it on A at once, where it fails on the taken port; once
   * B is back and holds a task of its own, the failed one is restarted, as an operator would. A
   * FAILED status may be one a restart already superseded: restarting again is what an operator
   * would do too, and the task must start whatever the state of its previous instance.
   */
  private static void awaitBothServingRestartingFailed(ChaosStack stack, List<String> urls) {
    Await.until(
        READY,
        () -> "both workers serving: " + stack.status(0, CONNECTOR),
        new Throttled(
            Duration.ofSeconds(3),
            () -> {
              JsonNode status = stack.status(0, CONNECTOR);
              if (status != null) {
                for (JsonNode task : status.path("tasks")) {
                  if (task.path("state").asText().equals("FAILED")) {
                    assertThat(task.path("trace").asText())
                        .contains("already in use on this worker");
                    restart(stack, task.path("id").asInt());
                  }
                }
              }
              return urls.stream().allMatch(IngestTwoWorkersIT::ready);
            }));
  }

  private static void restart(ChaosStack stack, int task) {
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + stack.restPort(0)
                                  + "/connectors/"
                                  + CONNECTOR
                                  + "/tasks/"
                                  + task
                                  + "/restart"))
                      .POST(HttpRequest.BodyPublishers.noBody())
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      System.out.printf("restarted failed task %d: %d%n", task, response.statusCode());
    } catch (java.io.IOException e) {
      // the worker is busy rebalancing: the next check tries again
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void awaitAccepting(String url) {
    Await.until(READY, url + "/health to answer ready", () -> ready(url));
  }

  /** Whether {@code url}'s {@code /health} answers ready. */
  private static boolean ready(String url) {
    try {
      HttpRequest health =
          HttpRequest.newBuilder(URI.create(url + "/health"))
              .timeout(Duration.ofSeconds(2))
              .build();
      return HttpClient.newHttpClient()
              .send(health, HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (java.io.IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static HttpResponse<String> post(String url, String body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url + "/write"))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** The rows of the measurement's topic a read_committed consumer reads, by client row id. */
  private static Set<String> committedRows(String bootstrap) {
    Set<String> rows = new HashSet<>();
    IngestLakeAudit.readCommitted(
        bootstrap,
        TOPIC,
        r -> {
          JsonNode v = readValue(r.value());
          rows.add(
              v.path("client").asText()
                  + "/"
                  + v.path("req").asText()
                  + "/"
                  + v.path("row").asLong());
        });
    return rows;
  }

  private static JsonNode readValue(byte[] value) {
    try {
      return JSON.readTree(new String(value, StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
