package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.FreePorts;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP poll and file source metrics through the Prometheus JMX exporter agent with the rules of
 * docker/prometheus/jmx-exporter.yml, on a stock worker process: an HTTP poll connector against the
 * fixture API with OAuth2 and a 429 (so tokens are refreshed and a request is retried and
 * throttled) and a file source reading NDJSON with one bad line. ComposeTopologyIT scrapes the HTTP
 * ingest, lake sink and Connect metrics of the compose stack the same way.
 */
class MetricsScrapeIT {
  private static final Duration READY = Duration.ofMinutes(2);
  private static final Path AGENT =
      Path.of("target/agents/jmx_prometheus_javaagent.jar").toAbsolutePath();
  private static final int ITEMS = 60;
  private static final int LINES = 40;

  @TempDir static Path dir;
  private static final List<CliProcess> processes = new ArrayList<>();
  private static PollFixtureApi api;
  private static ConnectWorkerProcess worker;
  private static URI metrics;

  @BeforeAll
  static void start() throws Exception {
    int[] ports = FreePorts.take(4);
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
            "io.skippr.connect.source.file.FileSourceConnector"));
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
  }
}
