package io.skippr.connect.source.poll.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.config.HttpPollConfig;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

class PageRequestsTest {

  private static PageRequests requests(Map<String, String> overrides) {
    Map<String, String> c = new HashMap<>();
    c.put("name", "t");
    c.put("http.url", "https://api.example.com/v1/orders");
    c.put("topic", "orders");
    c.put("cursor.pointer", "/updated_at");
    c.putAll(overrides);
    EndpointSettings settings = HttpPollConfig.from(c).endpoints().get(0);
    return new PageRequests(settings);
  }

  @Test
  void theCursorGoesIntoItsParameterOrThePlaceholder() {
    assertThat(
            requests(Map.of("cursor.param", "since", "http.params", "limit=50"))
                .uri("2024-05-01T00:00:00+02:00", null)
                .toString())
        .isEqualTo(
            "https://api.example.com/v1/orders?limit=50&since=2024-05-01T00%3A00%3A00%2B02%3A00");
    assertThat(
            requests(Map.of("http.url", "https://api.example.com/v1/orders/after/${cursor}"))
                .uri("a/b c", null)
                .toString())
        .isEqualTo("https://api.example.com/v1/orders/after/a%2Fb%20c");
    assertThat(requests(Map.of("cursor.param", "since")).uri(null, null).getQuery()).isNull();
  }

  @Test
  void pagesCarryTheirReference() {
    PageRequests token =
        requests(
            Map.of(
                "pagination.mode",
                "token",
                "pagination.next.pointer",
                "/next",
                "cursor.param",
                "since"));
    assertThat(token.uri("c1", null).getQuery()).isEqualTo("since=c1");
    assertThat(token.uri("c1", "t=2").getRawQuery()).isEqualTo("since=c1&page_token=t%3D2");
    PageRequests page = requests(Map.of("pagination.mode", "page", "pagination.limit", "25"));
    assertThat(page.uri(null, null).getQuery()).isEqualTo("page=1&limit=25");
    assertThat(page.uri(null, "4").getQuery()).isEqualTo("page=4&limit=25");
    PageRequests offset = requests(Map.of("pagination.mode", "offset"));
    assertThat(offset.uri(null, "300").getQuery()).isEqualTo("offset=300&limit=100");
    PageRequests link = requests(Map.of("pagination.mode", "next_link", "cursor.param", "since"));
    assertThat(link.uri("c1", "https://other.example.com/p?cursor=abc").toString())
        .isEqualTo("https://other.example.com/p?cursor=abc");
  }

  @Test
  void aPostBodyGetsJsonEscapedValuesAndTheHeaders() throws Exception {
    PageRequests post =
        requests(
            Map.of(
                "http.method", "POST",
                "http.body", "{\"since\":\"${cursor}\",\"token\":\"${token}\"}",
                "http.headers", "X-Api-Key: k1\nAccept-Language: de, en",
                "pagination.mode", "token",
                "pagination.next.pointer", "/next",
                "pagination.token.param", ""));
    HttpRequest request = post.request("say \"hi\"\n", "t1").build();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri().getQuery()).isNull();
    assertThat(request.headers().firstValue("X-Api-Key")).contains("k1");
    assertThat(request.headers().firstValue("Accept-Language")).contains("de, en");
    assertThat(body(request)).isEqualTo("{\"since\":\"say \\\"hi\\\"\\n\",\"token\":\"t1\"}");
  }

  private static String body(HttpRequest request) throws Exception {
    CompletableFuture<String> text = new CompletableFuture<>();
    request
        .bodyPublisher()
        .orElseThrow()
        .subscribe(
            new Flow.Subscriber<ByteBuffer>() {
              private final StringBuilder out = new StringBuilder();

              @Override
              public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
              }

              @Override
              public void onNext(ByteBuffer item) {
                out.append(StandardCharsets.UTF_8.decode(item));
              }

              @Override
              public void onError(Throwable t) {
                text.completeExceptionally(t);
              }

              @Override
              public void onComplete() {
                text.complete(out.toString());
              }
            });
    return text.get();
  }
}
