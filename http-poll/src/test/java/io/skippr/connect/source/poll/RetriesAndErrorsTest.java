package io.skippr.connect.source.poll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.source.poll.FixtureConfigs.Listing;
import io.skippr.connect.source.poll.metrics.PollMetrics;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import io.skippr.connect.testkit.pollapi.PollFixtureApi.Served;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transient failures are retried (Retry-After honoured, counted), permanent ones fail the task with
 * the redacted URL, the status and the reason, a record that cannot be positioned goes to the
 * rejection topic while its page's other records land, and a 2xx body that is no page is one
 * rejection that ends the pass.
 */
class RetriesAndErrorsTest {
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

  private PollHarness start(Map<String, String> overrides) {
    Map<String, String> config = new HashMap<>(FixtureConfigs.of(api, Listing.TOKEN));
    config.putAll(overrides);
    harness = new PollHarness(dir, Map.of(), config).start();
    return harness;
  }

  @Test
  void a429StormIsWaitedOutAsRetryAfterSays() throws Exception {
    api.add(25);
    api.failNext(3, 429, "1");
    start(Map.of());
    harness.runUntil(TIMEOUT, "25 records", () -> harness.landed.size() >= 25);

    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
    List<Served> served = api.served();
    assertThat(served.subList(0, 4)).extracting(Served::status).containsExactly(429, 429, 429, 200);
    for (int i = 1; i < 4; i++) {
      assertThat(Duration.between(served.get(i - 1).arrived(), served.get(i).arrived()))
          .as("wait before attempt %d", i + 1)
          .isGreaterThanOrEqualTo(Duration.ofMillis(990));
    }
    PollMetrics m = harness.task.metrics();
    assertThat(m.count(PollMetrics.THROTTLED, "default")).isEqualTo(3);
    assertThat(m.count(PollMetrics.RETRIES, "default")).isEqualTo(3);
    assertThat(m.count(PollMetrics.REQUESTS, "default", "429")).isEqualTo(3);
    assertThat(m.count(PollMetrics.REQUESTS, "default", "200")).isEqualTo(3);
  }

  @Test
  void retryAfterAsAnHttpDateIsHonoured() throws Exception {
    api.add(5);
    ZonedDateTime notBefore = ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(3).withNano(0);
    api.failNext(1, 503, DateTimeFormatter.RFC_1123_DATE_TIME.format(notBefore));
    start(Map.of());
    harness.runUntil(TIMEOUT, "5 records", () -> harness.landed.size() >= 5);
    List<Served> served = api.served();
    assertThat(served.get(0).status()).isEqualTo(503);
    assertThat(served.get(1).arrived()).isAfterOrEqualTo(notBefore.toInstant());
  }

  @Test
  void serverErrorsAreRetriedWithBackoffAndLoseNothing() throws Exception {
    api.add(31);
    api.failNext(2, 500, null);
    start(Map.of());
    harness.page(TIMEOUT);
    api.failNext(2, 502, null); // in the middle of the pass
    harness.runUntil(TIMEOUT, "31 records", () -> harness.landed.size() >= 31);
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
    assertThat(harness.task.metrics().count(PollMetrics.RETRIES, "default")).isEqualTo(4);
  }

  @Test
  void a403WithRetryAfterIsARateLimitAndOneWithoutFails() throws Exception {
    api.add(5);
    api.failNext(1, 403, "0");
    api.failNext(1, 403, null);
    start(Map.of());
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("answered 403");
    assertThat(api.served()).extracting(Served::status).containsExactly(403, 403);
    assertThat(harness.task.metrics().count(PollMetrics.RETRIES, "default")).isEqualTo(1);
  }

  @Test
  void givesUpAfterRetryMaxAttemptsNamingStatusAndRedactedUrl() throws Exception {
    api.add(5);
    api.failNext(5, 502, null);
    start(Map.of("retry.max.attempts", "3", "http.params", "limit=10&api_key=s3cr3t-key"));
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("endpoint default")
        .hasMessageContaining("answered 502")
        .hasMessageContaining("gave up after 3 attempts")
        .hasMessageContaining("api_key=***")
        .hasMessageNotContaining("s3cr3t-key");
    assertThat(api.served()).hasSize(3);
  }

  @Test
  void anErrorBodyIsOneShortLineInTheFailure() throws Exception {
    api.answerNext(
        404,
        Map.of(),
        ("{\"error\":\"gone\"}\r\n12:00:00 INFO forged\u001b[0m" + "x".repeat(500))
            .getBytes(StandardCharsets.UTF_8));
    start(Map.of());
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("answered 404: {\"error\":\"gone\"} 12:00:00 INFO forged [0mxxx")
        .hasMessageEndingWith("x…")
        .hasMessageNotContaining("\n")
        .hasMessageNotContaining("\u001b");
  }

  @Test
  void aPermanent4xxFailsTheTaskAtOnce() throws Exception {
    api.add(5);
    api.failNext(1, 404, null);
    start(Map.of());
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("GET " + api.url("/token/items"))
        .hasMessageContaining("answered 404");
    assertThat(api.served()).hasSize(1);
    // The failure sticks: the endpoint does not quietly go on.
    assertThatThrownBy(() -> harness.task.poll()).isInstanceOf(ConnectException.class);
  }

  @Test
  void aBodyThatIsNotJsonIsOnePageRejectionAndTheNextPassReadsOn() throws Exception {
    api.add(5);
    api.nonJsonNext();
    start(Map.of("poll.interval.ms", "50"));
    harness.runUntil(TIMEOUT, "the page rejection and 5 records", () -> harness.landed.size() >= 6);
    List<SourceRecord> rejections = harness.landed("orders_rejections");
    assertThat(rejections).hasSize(1);
    Map<?, ?> rejection = (Map<?, ?>) rejections.get(0).value();
    assertThat((String) rejection.get("reason")).startsWith("the body is not JSON (");
    assertThat(rejection.get("url")).isEqualTo(api.url("/token/items?limit=10"));
    assertThat(rejection.get("status")).isEqualTo(200L);
    assertThat(rejection.get("page")).isEqualTo(0L);
    assertThat(rejection.containsKey("index")).isFalse();
    assertThat((String) rejection.get("record")).startsWith("<html>");
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
  }

  @Test
  void aMissingRecordsPointerRejectsEveryPageWithThePointerAndNeverFailsTheTask() throws Exception {
    api.add(5);
    start(Map.of("records.pointer", "/data/items", "poll.interval.ms", "20"));
    harness.runUntil(TIMEOUT, "3 page rejections", () -> harness.landed.size() >= 3);
    assertThat(harness.landed("orders_rejections"))
        .allSatisfy(
            r ->
                assertThat(((Map<?, ?>) r.value()).get("reason"))
                    .isEqualTo("the body has nothing at records.pointer=/data/items"));
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEmpty();
  }

  @Test
  void aNextLinkThatCannotBeFollowedRejectsThePageAfterItsRecords() throws Exception {
    // Found by PageFuzzTest: resolving "a b|{}" threw, and the task failed ("cannot read a page").
    api.add(3);
    api.answerNext(
        200,
        Map.of("Link", "<a b|{}>; rel=\"next\""),
        "[{\"id\":0,\"updated_at\":\"2020-01-01T00:00:00Z\"}]".getBytes(StandardCharsets.UTF_8));
    Map<String, String> config = new HashMap<>(FixtureConfigs.of(api, Listing.NEXT_LINK));
    config.put("poll.interval.ms", "50");
    harness = new PollHarness(dir, Map.of(), config).start();
    harness.runUntil(TIMEOUT, "5 records and rejections", () -> harness.landed.size() >= 5);
    assertThat(harness.landed.get(0).topic()).isEqualTo(FixtureConfigs.TOPIC);
    Map<?, ?> rejection = (Map<?, ?>) harness.landed.get(1).value();
    assertThat(harness.landed.get(1).topic()).isEqualTo("orders_rejections");
    assertThat((String) rejection.get("reason")).startsWith("the next page's URL is no URI");
    assertThat(rejection.get("record")).isEqualTo("a b|{}");
    assertThat(harness.landedIds(FixtureConfigs.TOPIC))
        .as("the next pass reads on from the delivered cursor")
        .containsExactly(0L, 1L, 2L, 3L);
  }

  @Test
  void aStoredPageReferenceThatIsNoUrlFailsTheTaskNamingIt() throws Exception {
    // An offset changed through the REST API may hold anything: the request could not be built
    // and an IllegalArgumentException without context failed the task.
    Map<String, String> config = new HashMap<>(FixtureConfigs.of(api, Listing.NEXT_LINK));
    harness = new PollHarness(dir, Map.of(), config);
    harness.kafkaOffsets.put(
        Map.of("endpoint", "default"),
        Map.of("pass", 1L, "page", 1L, "next", "a b|{}", "skip", 0L, "pass_done", false));
    harness.start();
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("the page reference a b|{} cannot be requested");
  }

  @Test
  void aRecordWithoutCursorIsRejectedOnceAndTheOthersLand() throws Exception {
    api.add(5);
    long broken = api.items().addWithout("updated_at");
    start(Map.of());
    harness.runUntil(TIMEOUT, "5 records and 1 rejection", () -> harness.landed.size() >= 6);
    // Later passes list the broken record again, right after the delivered cursor.
    morePasses(3);
    api.add(4);
    harness.runUntil(
        TIMEOUT, "9 records", () -> harness.landedIds(FixtureConfigs.TOPIC).size() >= 9);
    morePasses(3);

    List<Long> expected = api.items().ids().stream().filter(id -> id != broken).toList();
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(expected);
    List<SourceRecord> rejections = harness.landed("orders_rejections");
    assertThat(rejections).hasSize(1);
    Map<?, ?> rejection = (Map<?, ?>) rejections.get(0).value();
    assertThat(rejection.get("reason")).isEqualTo("no cursor at /updated_at");
    assertThat(rejection.get("index")).isEqualTo(5L);
    assertThat(rejection.get("page")).isEqualTo(0L);
    assertThat(rejection.get("status")).isEqualTo(200L);
    assertThat((String) rejection.get("url")).startsWith(api.url("/token/items"));
    assertThat((String) rejection.get("record")).contains("\"id\":" + broken);
    assertThat(harness.task.metrics().count(PollMetrics.REJECTED, "default")).isEqualTo(1);
  }

  private void morePasses(int n) throws InterruptedException {
    long pages = api.pagesServed();
    harness.runUntil(TIMEOUT, n + " more passes", () -> api.pagesServed() >= pages + n);
  }

  @Test
  void aStatic401FailsAtOnce() throws Exception {
    api.add(5);
    api.requireBearer("right");
    start(Map.of("auth.type", "bearer", "auth.bearer.token", "wrong"));
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("answered 401")
        .hasMessageNotContaining("wrong");
    assertThat(api.served()).hasSize(1);
  }
}
