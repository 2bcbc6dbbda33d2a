package io.skippr.connect.source.poll;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.poll.FixtureConfigs.Listing;
import io.skippr.connect.source.poll.metrics.PollMetrics;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import io.skippr.connect.testkit.pollapi.PollFixtureApi.Served;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several endpoints in one task, the rate limit, transactions per page, and metrics through
 * Connect's plugin metrics (or only in memory on workers without them).
 */
class EndpointsAndMetricsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private PollFixtureApi api;
  private PollHarness harness;

  @BeforeEach
  void startApi() throws Exception {
    api = PollFixtureApi.start(7);
  }

  @AfterEach
  void stop() {
    if (harness != null) {
      harness.close();
    }
    api.close();
  }

  @Test
  void endpointsHaveTheirOwnTopicsAndOffsets() throws Exception {
    api.add(33);
    Map<String, String> c = new HashMap<>(FixtureConfigs.of(api, Listing.TOKEN));
    c.put("endpoints", "orders,feed");
    c.put("endpoint.feed.topic", "feed");
    c.put("endpoint.feed.http.url", api.url("/page/items"));
    c.put("endpoint.feed.records.pointer", "/results");
    c.put("endpoint.feed.pagination.mode", "page");
    c.put("endpoint.feed.pagination.limit.param", "per_page");
    c.put("endpoint.feed.pagination.limit", "10");
    harness = new PollHarness(dir, Map.of(), c).start();
    harness.runUntil(TIMEOUT, "33 records each", () -> harness.landed.size() >= 66);

    assertThat(harness.landedIds("orders")).isEqualTo(api.items().ids());
    assertThat(harness.landedIds("feed")).isEqualTo(api.items().ids());
    assertThat(harness.kafkaOffsets.keySet())
        .containsExactlyInAnyOrder(Map.of("endpoint", "orders"), Map.of("endpoint", "feed"));
    assertThat(api.served()).extracting(Served::path).contains("/token/items", "/page/items");
  }

  @Test
  void theRateLimitSpacesRequests() throws Exception {
    api.add(45);
    Map<String, String> c = new HashMap<>(FixtureConfigs.of(api, Listing.TOKEN));
    c.put("rate.limit.per.second", "5");
    harness = new PollHarness(dir, Map.of(), c).start();
    harness.runUntil(TIMEOUT, "45 records", () -> harness.landed.size() >= 45);
    List<Served> served = api.served();
    assertThat(served).hasSizeGreaterThanOrEqualTo(5);
    // Starts are 200 ms apart (RateLimiter's own test checks the spacing exactly); arrivals at
    // the server also carry scheduling delays, so only the span of them all is checked here.
    // Without the limit the span is a few milliseconds.
    assertThat(Duration.between(served.get(0).arrived(), served.get(served.size() - 1).arrived()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(140L * (served.size() - 1)));
  }

  @Test
  void withConnectorBoundariesEachPageIsOneTransaction() throws Exception {
    api.add(25);
    harness = new PollHarness(dir, Map.of(), FixtureConfigs.of(api, Listing.TOKEN));
    harness.connectorBoundary = true;
    harness.start();
    List<SourceRecord> first = harness.page(TIMEOUT);
    List<SourceRecord> second = harness.page(TIMEOUT);
    List<SourceRecord> third = harness.page(TIMEOUT);
    assertThat(first).hasSize(10);
    assertThat(harness.transactionCommits)
        .containsExactly(first.get(9), second.get(9), third.get(third.size() - 1));
    // The page's last record carries the next page's position.
    Map<String, Object> afterFirst = new HashMap<>(first.get(9).sourceOffset());
    assertThat(afterFirst).containsEntry("page", 1L).containsEntry("skip", 0L);
    Map<String, Object> afterLast = new HashMap<>(third.get(third.size() - 1).sourceOffset());
    assertThat(afterLast).containsEntry("pass_done", true);
  }

  @Test
  void metricsArePublishedAsPluginMetrics() throws Exception {
    api.add(25);
    api.failNext(1, 429, "0");
    harness = new PollHarness(dir, Map.of(), FixtureConfigs.of(api, Listing.TOKEN)).start();
    harness.runUntil(TIMEOUT, "25 records", () -> harness.landed.size() >= 25);
    harness.runUntil(
        TIMEOUT, "a pass", () -> harness.task.metrics().count(PollMetrics.PASSES, "default") >= 1);
    Map<String, String> endpoint = Map.of("endpoint", "default");
    assertThat(harness.metric("records-total", endpoint)).isEqualTo(25.0);
    assertThat(harness.metric("pages-total", endpoint)).isEqualTo(3.0);
    assertThat(harness.metric("throttled-total", endpoint)).isEqualTo(1.0);
    assertThat(harness.metric("retries-total", endpoint)).isEqualTo(1.0);
    assertThat(harness.metric("requests-total", Map.of("endpoint", "default", "status", "429")))
        .isEqualTo(1.0);
    assertThat((Double) harness.metric("last-pass-age-ms", endpoint)).isGreaterThanOrEqualTo(0.0);
  }

  @Test
  void workersWithoutPluginMetricsStillRunAndCount() throws Exception {
    api.add(12);
    harness = new PollHarness(dir, Map.of(), FixtureConfigs.of(api, Listing.TOKEN));
    harness.pluginMetricsMissing = true;
    harness.start();
    harness.runUntil(TIMEOUT, "12 records", () -> harness.landed.size() >= 12);
    assertThat(harness.task.metrics().count(PollMetrics.RECORDS, "default")).isEqualTo(12);
    assertThat(harness.metric("records-total", Map.of("endpoint", "default"))).isNull();
  }
}
