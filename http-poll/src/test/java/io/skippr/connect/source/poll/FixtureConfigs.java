package io.skippr.connect.source.poll;

import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.util.HashMap;
import java.util.Map;

/** Connector configs for each listing of the fixture API. */
final class FixtureConfigs {

  static final String TOPIC = "orders";

  /** The listings, one per pagination mode (plus POST with the token in the body). */
  enum Listing {
    NONE,
    NEXT_LINK,
    NEXT_URL,
    TOKEN,
    PAGE,
    OFFSET,
    POST_TOKEN
  }

  private FixtureConfigs() {}

  /** Cursor /updated_at with tie-breaker /id, fast passes and retries. */
  static Map<String, String> of(PollFixtureApi api, Listing listing) {
    Map<String, String> c = new HashMap<>();
    c.put("topic", TOPIC);
    c.put("cursor.pointer", "/updated_at");
    c.put("cursor.tiebreak.pointer", "/id");
    c.put("cursor.param", "since");
    c.put("record.key.pointer", "/id");
    c.put("poll.interval.ms", "100");
    c.put("retry.backoff.ms", "20");
    c.put("retry.backoff.max.ms", "200");
    switch (listing) {
      case NONE -> {
        c.put("http.url", api.url("/cursor/items"));
        c.put("http.params", "limit=25");
        c.put("pagination.limit", "25");
      }
      case NEXT_LINK -> {
        c.put("http.url", api.url("/link/items"));
        c.put("http.params", "limit=10");
        c.put("pagination.mode", "next_link");
      }
      case NEXT_URL -> {
        c.put("http.url", api.url("/nexturl/items"));
        c.put("http.params", "limit=10");
        c.put("records.pointer", "/data");
        c.put("pagination.mode", "next_url");
        c.put("pagination.next.pointer", "/paging/next");
      }
      case TOKEN -> {
        c.put("http.url", api.url("/token/items"));
        c.put("http.params", "limit=10");
        c.put("records.pointer", "/items");
        c.put("pagination.mode", "token");
        c.put("pagination.next.pointer", "/next_page_token");
      }
      case PAGE -> {
        c.put("http.url", api.url("/page/items"));
        c.put("records.pointer", "/results");
        c.put("pagination.mode", "page");
        c.put("pagination.limit.param", "per_page");
        c.put("pagination.limit", "10");
      }
      case OFFSET -> {
        c.put("http.url", api.url("/offset/items"));
        c.put("records.pointer", "/records");
        c.put("pagination.mode", "offset");
        c.put("pagination.limit", "10");
      }
      case POST_TOKEN -> {
        c.put("http.url", api.url("/search"));
        c.put("http.method", "POST");
        c.put("http.body", "{\"since\":\"${cursor}\",\"page_token\":\"${token}\",\"limit\":10}");
        c.put("cursor.param", "");
        c.put("records.pointer", "/hits/items");
        c.put("pagination.mode", "token");
        c.put("pagination.next.pointer", "/next");
        c.put("pagination.token.param", "");
      }
      default -> throw new IllegalArgumentException(listing.name());
    }
    return c;
  }
}
