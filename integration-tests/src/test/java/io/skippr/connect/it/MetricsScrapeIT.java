package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.FreePorts;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP poll, file source and HTTP ingest metrics through the Prometheus JMX exporter agent with
 * the rules of docker/prometheus/jmx-exporter.yml, on a stock worker process: an HTTP poll
 * connector against the fixture API with OAuth2 and a 429 (so tokens are refreshed and a request is
 * retried and throttled), a file source reading NDJSON with one bad line, and HTTP ingest answering
 * a write too large (413) and, while the connector is paused with a write in flight, one more
 * (429). ComposeTopologyIT scrapes the HTTP ingest, lake sink and Connect metrics of the compose
 * stack the same way.
 */
class MetricsScrapeIT {
  private static final Duration READY = Duration.ofMinutes(2);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Path AGENT =
      Path.of("target/agents/jmx_prometheus_javaagent.jar").toAbsolutePath();
  private static final int ITEMS = 60;
  private static final int LINES = 40;
  private static final String INGEST_CLASS =
      "io.skippr.connect.source.http.HttpIngestSourceConnector";

  /** Rows one write may have, and rows in flight the ingest connector admits: one full write. */
  private static final int INGEST_ROWS = 10;

  private static final int INGEST_MAX_BYTES = 4096;

  @TempDir static Path dir;
  private static final List<CliProcess> processes = new ArrayList<>();
  private static PollFixtureApi api;
  private static ConnectWorkerProcess worker;
  private static URI metrics;
  private static int ingestPort;

  @BeforeAll
  static void start() throws Exception {
    int[] ports = FreePorts.take(5);
    ingestPort = ports[4];
    processes.add(CliProcess.startBroker(dir, ports[0], ports[1], READY));
    Properties props = ConnectWorkerProcess.plainWorker("127.0.0.1:" + ports[0], ports[2]);
    props.setProperty("exactly.once.source.support", "enabled");
    String agent =
        "-javaagent:"
            + AGENT
            + "=127.0.0.1:"
            + ports[3]
            + ":"
            + ComposeFiles.DOCKER.resolve("prometheus/jmx-exporter.yml");
    Path workerDir = Files.createDirectories(dir.resolve("worker"));
    worker =
        ConnectWorkerProcess.start(
            new ConnectWorkerProcess.Launch(
                workerDir, props, Map.of(), List.of(agent), List.of(), workerDir));
    worker.awaitReady(
        READY,
        List.of(
            "io.skippr.connect.source.poll.HttpPollSourceConnector",
            "io.skippr.connect.source.file.FileSourceConnector",
            INGEST_CLASS));
    metrics = URI.create("http://127.0.0.1:" + ports[3] + "/metrics");
    api = PollFixtureApi.start(7);
    api.requireOAuth("scrape-client", "scrape-secret", "rt-scrape-first");
    api.add(ITEMS);
    api.failNext(1, 429, "0");
  }

  @AfterAll
  static void stop() throws Exception {
    if (worker != null) {
      worker.close();
    }
    CliProcess.stopAll(processes);
    if (api != null) {
      api.close();
    }
  }

  /** A scrape, or null while the agent cannot answer. */
  private static PrometheusScrape scrapeOrNull() {
    try {
      return PrometheusScrape.of(metrics);
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  @Test
  void pollAndFileMetricsAreExposedWithTheirLabels() throws Exception {
    Map<String, String> poll = new HashMap<>();
    poll.put("auth.type", "oauth2");
    poll.put("auth.oauth2.token.url", api.url("/oauth/token"));
    poll.put("auth.oauth2.client.id", "scrape-client");
    poll.put("auth.oauth2.client.secret", "scrape-secret");
    poll.put("auth.oauth2.grant", "refresh_token");
    poll.put("auth.oauth2.refresh.token", "rt-scrape-first");
    poll.put("store.encryption", "off");
    Map<String, String> pollConfig =
        new HashMap<>(PollLake.pollConfig(api, "scrape.", dir.resolve("poll-state"), poll));
    pollConfig.put("tasks.max", "1");
    worker.putConnector("poll", pollConfig);

    Path files = Files.createDirectories(dir.resolve("files"));
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < LINES; i++) {
      ndjson.append("{\"id\":").append(i).append("}\n");
    }
    ndjson.append("{not json\n");
    Files.writeString(files.resolve("events.ndjson"), ndjson);
    Map<String, String> fileConfig =
        FileSourceConfigs.source(
            files,
            "ndjson",
            "scrape.files",
            "store.rocksdb.path",
            dir.resolve("file-state").toString());
    fileConfig.put("tasks.max", "1");
    worker.putConnector("files", fileConfig);

    Await.until(
        READY,
        () -> "poll and file metrics; log:\n" + worker.tail(),
        () -> {
          PrometheusScrape scrape = scrapeOrNull();
          return scrape != null
              && scrape.sum("skippr_records_total", Map.of("connector", "poll")) >= 2 * ITEMS
              && scrape.sum("skippr_token_refreshes_total", Map.of("connector", "poll")) >= 1
              && scrape.sum("skippr_throttled_total", Map.of("connector", "poll")) >= 1
              && scrape.sum("skippr_records_read_total", Map.of("connector", "files")) >= LINES
              && scrape.sum("skippr_rejected_records_total", Map.of("connector", "files")) >= 1;
        });

    PrometheusScrape scrape = PrometheusScrape.of(metrics);
    scrape.assertExposes(ExposedMetrics.HTTP_POLL, "poll");
    scrape.assertExposes(ExposedMetrics.HTTP_POLL_BY_STATUS, "poll");
    scrape.assertExposes(ExposedMetrics.FILE_SOURCE, "files");
    scrape.assertExposes(ExposedMetrics.CONNECT_WORKER, "files");
    assertThat(scrape.sum("skippr_records_total", Map.of("connector", "poll")))
        .as("records delivered: every item once by each of the two endpoints")
        .isEqualTo(2 * ITEMS);
    assertThat(
            scrape.samples("skippr_requests_total", Map.of("connector", "poll", "status", "429")))
        .as("the 429 by status")
        .isNotEmpty();
    assertThat(scrape.sum("skippr_retries_total", Map.of("connector", "poll"))).isPositive();
    assertThat(scrape.sum("skippr_records_read_total", Map.of("connector", "files")))
        .isEqualTo(LINES);
    assertThat(scrape.sum("skippr_rejected_records_total", Map.of("connector", "files")))
        .isEqualTo(1);
    List<PrometheusScrape.Sample> fileLag =
        scrape.samples("skippr_file_lag_bytes", Map.of("connector", "files"));
    assertThat(fileLag).as("the lag of the file read, kept while it is tracked").isNotEmpty();
    for (PrometheusScrape.Sample sample : fileLag) {
      assertThat(sample.labels())
          .as("file and id without the quotes JMX puts around them: " + sample)
          .containsEntry("file", "events.ndjson")
          .hasEntrySatisfying("id", id -> assertThat(id).startsWith("ino:").doesNotContain("\""));
    }
  }

  @Test
  void ingestRequestsByStatusAreExposedWithTheirLabels() throws Exception {
    worker.putConnector("ingest", ingestConfig());
    String url = "http://127.0.0.1:" + ingestPort;
    Await.until(READY, () -> "ingest /health ready; log:\n" + worker.tail(), () -> ready(url));

    assertThat(post(url, "scraped v=1i 1\n").statusCode()).isEqualTo(204);
    HttpResponse<String> tooLarge = post(url, "scraped v=2i 2\n".repeat(INGEST_MAX_BYTES / 8));
    assertThat(tooLarge.statusCode()).as(tooLarge.body()).isEqualTo(413);

    // Paused, the task polls nothing: a full write stays in flight, and the next one gets 429.
    worker.put("/connectors/ingest/pause");
    Await.until(READY, "ingest task paused", () -> taskState("ingest").equals("PAUSED"));
    StringBuilder full = new StringBuilder();
    for (int i = 0; i < INGEST_ROWS; i++) {
      full.append("scraped v=").append(i).append("i ").append(100 + i).append('\n');
    }
    CompletableFuture<HttpResponse<String>> held = postAsync(url, full.toString());
    Await.until(
        READY,
        "a full write in flight",
        () -> {
          PrometheusScrape scrape = scrapeOrNull();
          return scrape != null
              && scrape.sum("skippr_rows_in_flight", Map.of("connector", "ingest")) >= INGEST_ROWS;
        });
    HttpResponse<String> busy = post(url, "scraped v=3i 3\n");
    assertThat(busy.statusCode()).as(busy.body()).isEqualTo(429);
    worker.put("/connectors/ingest/resume");
    HttpResponse<String> released = held.get(2, TimeUnit.MINUTES);
    assertThat(released.statusCode()).as(released.body()).isEqualTo(204);

    Await.until(
        READY,
        "the answers counted by status",
        () -> {
          PrometheusScrape scrape = scrapeOrNull();
          return scrape != null && requests(scrape, "204") >= 2;
        });
    PrometheusScrape scrape = PrometheusScrape.of(metrics);
    scrape.assertExposes(ExposedMetrics.HTTP_INGEST, "ingest");
    scrape.assertExposes(ExposedMetrics.HTTP_INGEST_BY_STATUS, "ingest");
    for (String status :
        List.of("200", "204", "400", "401", "404", "405", "408", "413", "429", "500", "503")) {
      assertThat(
              scrape.samples(
                  "skippr_requests_total", Map.of("connector", "ingest", "status", status)))
          .as("skippr_requests_total of status " + status + ", counted from the start")
          .hasSize(1);
    }
    assertThat(requests(scrape, "204")).isEqualTo(2);
    assertThat(requests(scrape, "413")).isEqualTo(1);
    assertThat(requests(scrape, "429")).isEqualTo(1);
    assertThat(requests(scrape, "503")).isZero();
    assertThat(scrape.sum("skippr_requests_4xx_total", Map.of("connector", "ingest"))).isEqualTo(2);
    assertThat(scrape.sum("skippr_rows_accepted_total", Map.of("connector", "ingest")))
        .isEqualTo(1 + INGEST_ROWS);
  }

  private static double requests(PrometheusScrape scrape, String status) {
    return scrape.sum("skippr_requests_total", Map.of("connector", "ingest", "status", status));
  }

  private static Map<String, String> ingestConfig() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", INGEST_CLASS);
    config.put("tasks.max", "1");
    config.put("server.port", Integer.toString(ingestPort));
    config.put("topic.prefix", "scrape.ingest.");
    config.put("catalog.store", "memory");
    config.put("limits.request.max.bytes", Integer.toString(INGEST_MAX_BYTES));
    config.put("limits.request.max.rows", Integer.toString(INGEST_ROWS));
    config.put("admission.max.inflight.rows", Integer.toString(INGEST_ROWS));
    config.put("ack.timeout.ms", "600000");
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    return config;
  }

  private static String taskState(String connector) {
    JsonNode status = worker.get("/connectors/" + connector + "/status");
    return status == null ? "" : status.path("tasks").path(0).path("state").asText();
  }

  private static boolean ready(String url) {
    try {
      return HTTP.send(
                  HttpRequest.newBuilder(URI.create(url + "/health"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static HttpResponse<String> post(String url, String body) throws Exception {
    return postAsync(url, body).get(2, TimeUnit.MINUTES);
  }

  private static CompletableFuture<HttpResponse<String>> postAsync(String url, String body) {
    return HTTP.sendAsync(
        HttpRequest.newBuilder(URI.create(url + "/write"))
            .timeout(Duration.ofMinutes(2))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
