package io.skippr.connect.source.poll.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class HttpPartsTest {

  @Test
  void linkHeadersYieldTheNextRelation() {
    assertThat(
            LinkHeader.next(
                List.of(
                    "<https://api.github.com/x?page=1>; rel=\"prev\", "
                        + "<https://api.github.com/x?page=3>; rel=\"next\", "
                        + "<https://api.github.com/x?page=9>; rel=\"last\"")))
        .contains("https://api.github.com/x?page=3");
    assertThat(LinkHeader.next(List.of("</a>; rel=first", "</b>; title=\"x\"; rel=\"last next\"")))
        .contains("/b");
    assertThat(LinkHeader.next(List.of("</a>; rel=\"last\""))).isEmpty();
    assertThat(LinkHeader.next(List.of())).isEmpty();
  }

  @Test
  void quotedParametersNeverPassForRelationsOrLinks() {
    // Found by LinkHeaderFuzzTest: the parameters were split at every ';' and ',', quoted or not,
    // so a title could make a link the next one, or smuggle in a link of its own.
    assertThat(LinkHeader.next(List.of("<https://a/2>;title=\"a; rel=next\""))).isEmpty();
    assertThat(
            LinkHeader.next(
                List.of("<https://a/2>; title=\"x, <https://evil/>; rel=next\"; rel=prev")))
        .isEmpty();
    assertThat(LinkHeader.next(List.of("<https://a/2>; title=\"say \\\"hi\\\"\"; rel=next")))
        .contains("https://a/2");
    assertThat(
            LinkHeader.next(List.of("<https://a/2>; rel=next; rel=prev, <https://a/3>; rel=next")))
        .as("the first rel of a link counts")
        .contains("https://a/2");
    assertThat(
            LinkHeader.next(List.of("<https://a/2>; rel=prev; rel=next, <https://a/3>; rel=next")))
        .contains("https://a/3");
  }

  @Test
  void retryAfterReadsSecondsAndHttpDates() {
    Instant now = Instant.parse("2024-05-01T12:00:00Z");
    assertThat(RetryAfter.parse("7", now)).contains(Duration.ofSeconds(7));
    assertThat(RetryAfter.parse("Wed, 01 May 2024 12:00:30 GMT", now))
        .contains(Duration.ofSeconds(30));
    assertThat(RetryAfter.parse("Wed, 01 May 2024 11:00:00 GMT", now)).contains(Duration.ZERO);
    assertThat(RetryAfter.parse("999999999", now)).contains(RetryAfter.MAX);
    assertThat(RetryAfter.parse("soon", now)).isEmpty();
    assertThat(RetryAfter.parse(null, now)).isEmpty();
  }

  @Test
  void redactionHidesUserInfoAndSecretParameters() {
    assertThat(
            Redaction.url(
                URI.create(
                    "https://bob:pw@api.example.com:8443/v1/items?since=2024&api_key=k1&access_token=t&limit=5")))
        .isEqualTo(
            "https://***@api.example.com:8443/v1/items?since=2024&api_key=***&access_token=***&limit=5");
  }

  @Test
  void headersSplitOnNewlinesOrCommasThatStartAHeader() {
    assertThat(HeaderLines.parse("k", "Accept: a, b\nX-Api-Key: s3, X-Trace: on"))
        .containsExactly(
            Map.entry("Accept", "a, b"), Map.entry("X-Api-Key", "s3"), Map.entry("X-Trace", "on"));
    assertThatThrownBy(() -> HeaderLines.parse("http.headers", "no colon secret-value"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("header 1")
        .hasMessageNotContaining("secret-value");
  }

  @Test
  void queryParametersAreEncodedOnceAndAppended() {
    URI uri =
        QueryString.append(
            URI.create("https://h/p?x=1#frag"),
            QueryString.parse("q=a b&since=2024-05-01T00:00:00%2B02:00"));
    assertThat(uri.toString())
        .isEqualTo("https://h/p?x=1&q=a%20b&since=2024-05-01T00%3A00%3A00%2B02%3A00#frag");
  }

  @Test
  void backoffDoublesWithJitterUpToTheCap() {
    Backoff low = new Backoff(100, 1000, () -> 0.0);
    Backoff high = new Backoff(100, 1000, () -> 1.0);
    assertThat(low.delay(1)).isEqualTo(Duration.ofMillis(50));
    assertThat(high.delay(1)).isEqualTo(Duration.ofMillis(100));
    assertThat(high.delay(3)).isEqualTo(Duration.ofMillis(400));
    assertThat(high.delay(30)).isEqualTo(Duration.ofMillis(1000));
  }

  @Test
  void rateLimiterSpacesRequestStarts() {
    RateLimiter twoPerSecond = new RateLimiter(2);
    long t0 = 1_000_000_000L;
    assertThat(twoPerSecond.nextStart(t0)).isEqualTo(t0);
    twoPerSecond.started(t0);
    assertThat(twoPerSecond.nextStart(t0 + 1)).isEqualTo(t0 + 500_000_000L);
    assertThat(twoPerSecond.nextStart(t0 + 600_000_000L)).isEqualTo(t0 + 600_000_000L);
    RateLimiter off = new RateLimiter(0);
    off.started(t0);
    assertThat(off.nextStart(t0 + 1)).isEqualTo(t0 + 1);
  }
}
