package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * Exactly once from the client to the lake under real SIGKILLs: a broker process and an
 * exactly-once worker process running HTTP ingest ({@code transaction.boundary=connector}) and a
 * read_committed lake sink. Retrying clients push rows in many requests while the worker is killed
 * at random moments and restarted. At the end every row that got 204 is in the lake, and the lake
 * is exactly what a read_committed consumer reads from the topic: no record of an aborted
 * transaction, no committed record missing, none twice. Rows a retry after a lost answer wrote
 * again are committed records too; the test prints how many.
 *
 * <p>{@code -Dingest.chaos.kills} (default 5), {@code -Dingest.chaos.rows} (at least this many rows
 * acknowledged, default 200,000), {@code -Dingest.chaos.seed}.
 */
class IngestChaosIT {
  private static final String CONNECTOR = "chaos-ingest";
  private static final String SINK = "chaos-ingest-lake";
  private static final String MEASUREMENT = "chaos";
  private static final String TOPIC = "ingest." + MEASUREMENT;
  private static final int CLIENTS = 8;
  private static final int ROWS_PER_REQUEST = 250;
  private static final Duration READY = Duration.ofMinutes(2);

  @TempDir Path root;
  private final List<CliProcess> processes = new ArrayList<>();
  private RetryingIngestClient clients;

  @AfterEach
  void stopAll() throws InterruptedException {
    if (clients != null) {
      clients.close();
    }
    CliProcess.stopAll(processes);
  }

  @Test
  void everyAcknowledgedRowLandsAndTheLakeIsWhatKafkaCommitted() throws Exception {
    int kills = Integer.getInteger("ingest.chaos.kills", 5);
    long minRows = Long.getLong("ingest.chaos.rows", 200_000);
    long seed = Long.getLong("ingest.chaos.seed", System.nanoTime());
    System.out.println("ingest chaos: seed " + seed + " (replay with -Dingest.chaos.seed=" + seed);
    Random random = new Random(seed);
    ChaosStack stack = ChaosStack.start(root, processes);
    int port = FreePorts.one();
    String url = "http://127.0.0.1:" + port;
    Path lake = root.resolve("lake");
    Path state = root.resolve("state");
    CliProcess worker = stack.awaitReady(stack.startWorker("worker-0", 0), 0);
    stack.putConnector(0, CONNECTOR, ingestConfig(port, state));
    stack.putConnector(0, SINK, sinkConfig(lake, state));
    awaitAccepting(url);

    long start = System.nanoTime();
    clients =
        new RetryingIngestClient(
            MEASUREMENT, CLIENTS, ROWS_PER_REQUEST, RetryingIngestClient.single(url));
    clients.start();
    for (int kill = 1; kill <= kills; kill++) {
      clients.acknowledgedSinceMark();
      Await.until(
          READY,
          "a write acknowledged by the restarted worker",
          () -> clients.acknowledgedSinceMark() > 0);
      long delayMs = 500 + random.nextInt(4_000);
      Thread.sleep(delayMs); // a random moment within the load, not a wait for a condition
      worker.kill();
      System.out.printf(
          "ingest chaos: %5.1f s kill %d/%d (pid %d) %d ms into the run of this worker, %,d rows"
              + " acknowledged%n",
          seconds(start), kill, kills, worker.pid(), delayMs, clients.acknowledgedRows());
      worker = stack.awaitReady(stack.startWorker("worker-" + kill, 0), 0);
      awaitAccepting(url);
    }
    Await.until(
        Duration.ofMinutes(10),
        () -> minRows + " rows acknowledged, got " + clients.acknowledgedRows(),
        () -> clients.acknowledgedRows() >= minRows);
    clients.finish(Duration.ofMinutes(2));

    IngestLakeAudit.Result audit =
        IngestLakeAudit.check(
            stack.bootstrapServers(), lake, TOPIC, clients.acknowledged(), Duration.ofMinutes(5));
    assertThat(audit.acknowledged()).isGreaterThanOrEqualTo(minRows);
    System.out.printf(
        "ingest chaos: %d kills, %,d rows acknowledged in %,d requests (%,d attempts, %,d"
            + " retries), %,d committed records, lake %,d rows = committed records exactly,"
            + " %,d rows written twice by retries after a lost answer, %.0f s, seed %d%n",
        kills,
        audit.acknowledged(),
        audit.acknowledged() / ROWS_PER_REQUEST,
        clients.attempts(),
        clients.retries(),
        audit.committed(),
        audit.lakeRows(),
        audit.retryDuplicates(),
        seconds(start),
        seed);
  }

  /** Waits until the ingest endpoint at {@code url} answers /health with 200. */
  static void awaitAccepting(String url) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    Await.until(
        READY,
        url + "/health to answer ready",
        () -> {
          try {
            HttpRequest health =
                HttpRequest.newBuilder(URI.create(url + "/health"))
                    .timeout(Duration.ofSeconds(2))
                    .build();
            return http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
          } catch (java.io.IOException e) {
            return false;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          }
        });
  }

  static Map<String, String> ingestConfig(int port, Path state) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", "1");
    config.put("server.port", Integer.toString(port));
    config.put("topic.prefix", "ingest.");
    config.put("exactly.once.support", "required");
    config.put("transaction.boundary", "connector");
    config.put("store.rocksdb.path", state.toString());
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "3");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    return config;
  }

  static Map<String, String> sinkConfig(Path lake, Path state) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics.regex", "ingest\\.[^_].*");
    config.put("topics.dir", lake.toString());
    config.put("include.kafka.metadata", "true");
    config.put("partitioner.class", "time");
    config.put("timestamp.extractor", "RecordField");
    config.put("timestamp.field", "time");
    config.put("path.format", "'dt'=YYYY-MM-dd");
    config.put("flush.size", "20000");
    config.put("rotate.schedule.interval.ms", "2000");
    config.put("store.rocksdb.path", state.toString());
    config.put("consumer.override.isolation.level", "read_committed");
    config.put("consumer.override.metadata.max.age.ms", "2000");
    config.put("errors.tolerance", "none");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    return config;
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
