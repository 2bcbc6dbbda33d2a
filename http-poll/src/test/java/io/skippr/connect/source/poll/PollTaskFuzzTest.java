package io.skippr.connect.source.poll;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.poll.FixtureConfigs.Listing;
import io.skippr.connect.source.poll.metrics.PollMetrics;
import io.skippr.connect.testkit.fuzz.FuzzShare;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A pass of hostile pages through a real task against the fixture API on 127.0.0.1: pages whose
 * records are good or bad in every way (no cursor, a cursor of the wrong type or too long, no
 * object, a number out of range), bodies that are no page, next links that are good, malformed, of
 * another scheme or pointing at the page itself. Good records come out once and in order, each bad
 * record is one rejection with its page and index, a page that is no page or whose next link cannot
 * be followed is one rejection, the pass ends where the pages say, and the poll never throws.
 */
class PollTaskFuzzTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String CURSOR = "2025-01-01T00:00:00Z";

  /** A listed record: its JSON, and whether it is delivered (else rejected). */
  record Item(String json, boolean good) {}

  /** A scripted page: the body (null: its records as a JSON array), records and next link. */
  record Page(String body, List<Item> items, String link, Next next) {}

  /** What a page's Link says. */
  enum Next {
    FOLLOW,
    NONE,
    SELF,
    UNFOLLOWABLE
  }

  @Property
  @FuzzShare(100)
  void goodRecordsComeOutOnceAndEveryBadOneOrBadPageIsOneRejection(
      @ForAll("passes") List<Page> pages) throws Exception {
    Path dir = Files.createTempDirectory("poll-fuzz");
    try (PollFixtureApi api = PollFixtureApi.start(1)) {
      List<String> expected = new ArrayList<>();
      int requests = script(api, pages, expected);
      Map<String, String> config = new HashMap<>(FixtureConfigs.of(api, Listing.NEXT_LINK));
      config.put("poll.interval.ms", "3600000");
      config.put("state.mirror", "off");
      try (PollHarness h = new PollHarness(dir, Map.of(), config).start()) {
        h.runUntil(
            TIMEOUT, "the pass", () -> h.task.metrics().count(PollMetrics.PASSES, "default") >= 1);
        assertThat(h.landed.stream().map(PollTaskFuzzTest::describe).toList()).isEqualTo(expected);
        assertThat(api.served()).as("pages requested").hasSize(requests);
      }
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /** Queues the pages' answers; fills in what must land; returns the pages requested. */
  private static int script(PollFixtureApi api, List<Page> pages, List<String> expected) {
    String url = api.url("/link/items?limit=10");
    long[] id = {1};
    for (int p = 0; p < pages.size(); p++) {
      Page page = pages.get(p);
      boolean last = p == pages.size() - 1;
      Next says = last && page.next() == Next.FOLLOW ? Next.NONE : page.next();
      String next = api.url("/link/items?page=" + (p + 2));
      String body = body(page, p, id, expected);
      api.answerNext(200, link(page, says, next, url), body.getBytes(StandardCharsets.UTF_8));
      if (page.body() != null || says != Next.FOLLOW) {
        if (page.body() == null && says == Next.UNFOLLOWABLE) {
          expected.add("rejected page " + p);
        }
        return p + 1;
      }
      url = next;
    }
    throw new IllegalStateException("the last page ends the pass");
  }

  /** The page's body; what must land of it goes into {@code expected}. */
  private static String body(Page page, int p, long[] id, List<String> expected) {
    if (page.body() != null) {
      expected.add("rejected page " + p);
      return page.body();
    }
    StringBuilder array = new StringBuilder("[");
    for (int i = 0; i < page.items().size(); i++) {
      Item item = page.items().get(i);
      array.append(i > 0 ? "," : "").append(item.json().replace("$ID", Long.toString(id[0])));
      expected.add(item.good() ? "record " + id[0] : "rejected page " + p + " index " + i);
      id[0] += item.good() ? 1 : 0;
    }
    return array.append("]").toString();
  }

  /** The page's Link header: to the next page, to itself, one that cannot be followed, none. */
  private static Map<String, String> link(Page page, Next says, String next, String self) {
    return switch (says) {
      case FOLLOW -> Map.of("Link", "<" + next + ">; rel=\"next\"");
      case SELF -> Map.of("Link", "<" + self + ">; rel=\"next\"");
      case UNFOLLOWABLE -> Map.of("Link", page.link());
      default -> Map.of();
    };
  }

  private static String describe(SourceRecord r) {
    Map<?, ?> value = (Map<?, ?>) r.value();
    if (r.topic().equals(FixtureConfigs.TOPIC)) {
      return "record " + value.get("id");
    }
    assertThat((String) value.get("reason")).isNotBlank();
    return "rejected page "
        + value.get("page")
        + (value.containsKey("index") ? " index " + value.get("index") : "");
  }

  @Provide
  Arbitrary<List<Page>> passes() {
    return page().list().ofMinSize(1).ofMaxSize(4);
  }

  private static Arbitrary<Page> page() {
    Arbitrary<Item> good =
        Arbitraries.of(
                "{\"id\":$ID,\"updated_at\":\"" + CURSOR + "\"}",
                "{\"id\":$ID,\"updated_at\":\"" + CURSOR + "\",\"n\":1.50,\"s\":\"\\u0000\"}",
                "{\"updated_at\":\""
                    + CURSOR
                    + "\",\"id\":$ID,\"deep\":"
                    + "[".repeat(200)
                    + "]".repeat(200)
                    + "}")
            .map(json -> new Item(json, true));
    Arbitrary<Item> bad =
        Arbitraries.of(
                "{\"id\":900}",
                "{\"id\":901,\"updated_at\":{\"t\":1}}",
                "{\"id\":902,\"updated_at\":[1]}",
                "{\"id\":903,\"updated_at\":null}",
                "{\"id\":904,\"updated_at\":\"" + "x".repeat(5000) + "\"}",
                "{\"updated_at\":\"" + CURSOR + "\"}",
                "{\"id\":999999,\"updated_at\":\""
                    + CURSOR
                    + "\",\"n\":123456789012345678901234567890}",
                "{\"id\":999999,\"updated_at\":\"" + CURSOR + "\",\"n\":1e400}",
                "\"text\"",
                "42",
                "[1,2]",
                "null")
            .map(json -> new Item(json, false));
    Arbitrary<List<Item>> items =
        Arbitraries.frequencyOf(Tuple.of(3, good), Tuple.of(2, bad)).list().ofMaxSize(6);
    Arbitrary<String> unusable =
        Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.just(null)),
            Tuple.of(
                2,
                Arbitraries.of(
                    "<html><body>Service temporarily moved</body></html>",
                    "{\"data\":[]}",
                    "[{\"id\":1,\"updated_at\":",
                    "[" + "[".repeat(1001) + "]".repeat(1001) + "]",
                    "[{\"n\":1" + "0".repeat(1001) + "}]")));
    Arbitrary<String> links =
        Arbitraries.of(
            "<a b|{}>; rel=next",
            "<ftp://files.example.com/x>; rel=next",
            "<javascript:alert(1)>; rel=\"next\"",
            "<http:///nohost>; rel=next",
            "<https://api.example.com/" + "x".repeat(20_000) + ">; rel=next");
    Arbitrary<Next> next =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just(Next.FOLLOW)),
            Tuple.of(1, Arbitraries.just(Next.NONE)),
            Tuple.of(1, Arbitraries.just(Next.SELF)),
            Tuple.of(2, Arbitraries.just(Next.UNFOLLOWABLE)));
    return Combinators.combine(unusable, items, links, next).as(Page::new);
  }
}
