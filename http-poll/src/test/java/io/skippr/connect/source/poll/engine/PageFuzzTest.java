package io.skippr.connect.source.poll.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.config.HttpPollConfig;
import io.skippr.connect.source.poll.cursor.Dedup;
import io.skippr.connect.source.poll.cursor.Position;
import io.skippr.connect.source.poll.cursor.PositionCodec;
import io.skippr.connect.source.poll.http.Response;
import io.skippr.connect.source.poll.page.PageParser;
import io.skippr.connect.source.poll.page.Pagination;
import io.skippr.connect.source.poll.page.ParsedPage;
import io.skippr.connect.testkit.fuzz.FuzzShare;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Pages of hostile shape through what an endpoint does with an answer (read the body, find the next
 * page, judge the records): records at a missing or wrong-typed pointer, records that are no
 * objects, cursors of odd types, huge numbers, deep nesting, next links and tokens of every kind.
 * Every record is delivered, skipped or rejected, a page that is no page is one rejection, no
 * exception escapes, every offset reads back, and the same page gives the same outcome twice.
 */
class PageFuzzTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Three cursors of 4 KiB (cursor, tie-breaker, pass cursor) and a 16 KiB page reference. */
  private static final int MAX_OFFSET_BYTES = 3 * 4 * 4096 + 4 * 16384 + 1024;

  private static final Map<Map<String, String>, EndpointSettings> SETTINGS =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static final URI SELF = URI.create("https://api.example.com/v1/items?page=1");

  /** An endpoint's settings and the page state a page is fetched at. */
  record Endpoint(Map<String, String> config, Position at) {
    @Override
    public String toString() {
      return config + " at " + at;
    }
  }

  /** An answer: Link header values and the body. */
  record Answer(List<String> links, byte[] body) {
    @Override
    public String toString() {
      return "Link "
          + links
          + ", body "
          + new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  @Property
  void everyRecordIsDeliveredSkippedOrRejectedAndTheOutcomeIsTheSameTwice(
      @ForAll("endpoints") Endpoint endpoint, @ForAll("answers") Answer answer) {
    EndpointSettings settings = SETTINGS.computeIfAbsent(endpoint.config(), PageFuzzTest::settings);
    Outcome first = outcome(settings, endpoint.at(), answer);
    assertThat(outcome(settings, endpoint.at(), answer)).isEqualTo(first);
    assertThat(first.result().delivered() + first.result().skipped() + first.result().rejected())
        .isEqualTo(first.records() + (first.pageRejected() ? 1 : 0));
    for (SourceRecord r : first.result().records()) {
      assertThat(PositionCodec.fromOffset(r.sourceOffset())).isNotNull();
      assertThat(json(r.sourceOffset()).length)
          .as("an offset stays far below a Kafka record's 1 MB")
          .isLessThanOrEqualTo(MAX_OFFSET_BYTES);
    }
  }

  @Property
  @FuzzShare(10)
  void aNumericCursorIsKeptAsTheApiWroteIt(@ForAll("decimals") String literal) {
    EndpointSettings settings = settings(config());
    byte[] body = Hostile.bytes("[{\"id\":1,\"updated_at\":" + literal + "}]");
    Outcome o = outcome(settings, Position.initial(null), new Answer(List.of(), body));
    assertThat(o.result().records()).hasSize(1);
    assertThat(o.result().records().get(0).sourceOffset().get(Position.CURSOR)).isEqualTo(literal);
  }

  @Example
  void decimalCursorsFoundChangedKeepTheirDigits() {
    // Found by aNumericCursorIsKeptAsTheApiWroteIt: decimals were read as doubles, so a cursor
    // went back to the API and into the offset as 376167.6693969029 or 0.0, and 1700000000.123
    // as 1.700000000123E9.
    for (String literal : List.of("376167.66939690290", "0.00", "1700000000.123")) {
      aNumericCursorIsKeptAsTheApiWroteIt(literal);
    }
  }

  @Example
  void aHugeCursorOrNextLinkNeverReachesAnOffset() {
    // Found by PageFuzzTest: a cursor or next link of any length (100,000 characters) went into the
    // offset of every record after it (Connect writes offsets as Kafka records of at most 1 MB).
    Map<String, String> c = config();
    c.put("pagination.mode", "next_url");
    c.put("records.pointer", "/data");
    c.put("pagination.next.pointer", "/next");
    EndpointSettings settings = HttpPollConfig.from(c).endpoints().get(0);
    String huge = "x".repeat(100_000);
    byte[] body =
        Hostile.bytes(
            "{\"next\":\"/"
                + huge
                + "\",\"data\":[{\"updated_at\":\""
                + huge
                + "\"},"
                + "{\"updated_at\":\"2025-01-01T00:00:00Z\"}]}");
    Outcome o = outcome(settings, Position.initial(null), new Answer(List.of(), body));
    List<SourceRecord> out = o.result().records();
    assertThat(out)
        .extracting(SourceRecord::topic)
        .containsExactly("items_rejections", "items", "items_rejections");
    assertThat(((Map<?, ?>) out.get(0).value()).get("reason"))
        .isEqualTo("the cursor at /updated_at is longer than 4096 characters");
    assertThat(((Map<?, ?>) out.get(2).value()).get("reason"))
        .isEqualTo("the next page's reference is longer than 16384 characters");
    assertThat(json(out.get(2).sourceOffset()).length).isLessThan(1024);
  }

  @Provide
  Arbitrary<String> decimals() {
    Arbitrary<String> digits = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(12);
    return Combinators.combine(
            Arbitraries.of("", "-"), Arbitraries.integers().between(0, 99_999_999), digits)
        .as((sign, whole, fraction) -> sign + whole + "." + fraction)
        .filter(d -> !d.matches("-0\\.0*")); // BigDecimal has no negative zero: 0.0
  }

  /** An endpoint of the API at {@link #SELF} with cursor {@code /updated_at}. */
  private static Map<String, String> config() {
    Map<String, String> c = new HashMap<>();
    c.put("name", "fuzz");
    c.put("http.url", SELF.toString());
    c.put("topic", "items");
    c.put("cursor.pointer", "/updated_at");
    return c;
  }

  /** An endpoint's settings (there are a few dozen: each is made once). */
  private static EndpointSettings settings(Map<String, String> config) {
    return HttpPollConfig.from(config).endpoints().get(0);
  }

  /** What the endpoint made of a page. */
  record Outcome(PageRecords.Result result, int records, boolean pageRejected) {}

  /** As {@code EndpointPoller.onPage}: read, find the next page, judge the records. */
  private static Outcome outcome(EndpointSettings settings, Position at, Answer answer) {
    Map<String, List<String>> headers = new HashMap<>();
    headers.put("Link", answer.links());
    Response response =
        new Response(SELF, 200, HttpHeaders.of(headers, (k, v) -> true), answer.body());
    ParsedPage page = new PageParser(settings.records().recordsPointer()).parse(response);
    PageRecords.PageProblem problem = null;
    Optional<String> next = Optional.empty();
    if (page.usable()) {
      try {
        next = Pagination.of(settings.pagination()).next(at.next(), page);
      } catch (Pagination.Unfollowable e) {
        problem = new PageRecords.PageProblem(e.getMessage(), e.reference());
      }
    } else {
      problem = new PageRecords.PageProblem(page.problem(), PageRecords.text(answer.body()));
    }
    PageRecords.Result result =
        new PageRecords(settings, new Dedup(settings.cursor())).build(page, at, next, problem);
    return new Outcome(result, page.records().size(), problem != null);
  }

  @Provide
  Arbitrary<Endpoint> endpoints() {
    Arbitrary<String> mode =
        Arbitraries.of("none", "next_link", "next_url", "token", "page", "offset");
    Arbitrary<String> pointer = Arbitraries.of("/data", "");
    Arbitrary<String> tiebreak = Arbitraries.of("/id", "");
    Arbitrary<String> type = Arbitraries.of("auto", "number", "timestamp", "string");
    Arbitrary<Position> at =
        Arbitraries.oneOf(
            Arbitraries.just(Position.initial(null)),
            Combinators.combine(
                    Arbitraries.of(null, "2025-01-01T00:00:05Z", "7", "1e400"),
                    Arbitraries.of(null, "3", "x"),
                    Arbitraries.longs().between(0, 3),
                    Arbitraries.longs().between(0, 5),
                    Arbitraries.longs().between(0, 2))
                .as(
                    (c, t, page, skip, rejects) ->
                        new Position(
                            c, t, 1, c, page, page == 0 ? null : "2", skip, rejects, false)));
    return Combinators.combine(mode, pointer, tiebreak, type, at)
        .as(
            (m, p, t, ty, a) -> {
              Map<String, String> c = config();
              c.put("records.pointer", p);
              c.put("record.key.pointer", "/id");
              c.put("cursor.tiebreak.pointer", t);
              c.put("cursor.type", ty);
              c.put("pagination.mode", m);
              if (m.equals("next_url") || m.equals("token")) {
                c.put("pagination.next.pointer", "/next");
              }
              return new Endpoint(
                  c,
                  a.next() != null && !m.equals("page") && !m.equals("offset")
                      ? withNext(a, m)
                      : a);
            });
  }

  private static Position withNext(Position a, String mode) {
    String next =
        mode.equals("next_link") || mode.equals("next_url")
            ? "https://api.example.com/v1/items?page=2"
            : "tok";
    return new Position(
        a.cursor(),
        a.tiebreak(),
        a.pass(),
        a.passCursor(),
        a.page(),
        next,
        a.skip(),
        a.rejects(),
        false);
  }

  @Provide
  Arbitrary<Answer> answers() {
    Arbitrary<byte[]> page = pages().map(PageFuzzTest::write);
    Arbitrary<byte[]> body =
        Arbitraries.frequencyOf(
            Tuple.of(6, page),
            Tuple.of(3, Hostile.mutated(page)),
            Tuple.of(1, Hostile.soup(30)),
            Tuple.of(1, Arbitraries.integers().between(990, 1010).map(PageFuzzTest::deep)));
    return Combinators.combine(links().list().ofMaxSize(2), body).as(Answer::new);
  }

  private static byte[] deep(int depth) {
    return Hostile.bytes(
        "{\"data\":[{\"id\":1,\"updated_at\":\"2025-01-01T00:00:00Z\",\"x\":"
            + "[".repeat(depth)
            + "]".repeat(depth)
            + "}]}");
  }

  private static Arbitrary<String> links() {
    return Arbitraries.of(
        "<https://api.example.com/v1/items?page=2>; rel=\"next\"",
        "</v1/items?page=3>; rel=next",
        "<?page=4>; rel=next",
        "<https://api.example.com/v1/items?page=1>; rel=next",
        "<>; rel=next",
        "<a b|{}>; rel=next",
        "<http://[::1>; rel=next",
        "<ftp://files.example.com/x>; rel=next",
        "<javascript:alert(1)>; rel=next",
        "<mailto:a@b>; rel=next",
        "<//other.example.com/x>; rel=next",
        "<https://api.example.com/%zz>; rel=next",
        "<https://api.example.com/x#frag>; rel=next",
        "<https://user:pw@api.example.com/x>; rel=next",
        "<https://api.example.com/" + "x".repeat(17_000) + ">; rel=next",
        "garbage; rel=next",
        "<https://a/>; title=\"; rel=next\"");
  }

  private static Arbitrary<Map<String, Object>> pages() {
    Arbitrary<Object> next =
        Arbitraries.of(
            "https://api.example.com/v1/items?page=2",
            "/v1/items?page=3",
            "a b|{}",
            "http://[::1",
            "ftp://x/y",
            "",
            "tok-2",
            "https://api.example.com/v1/items?page=1",
            "x".repeat(17_000));
    Arbitrary<Object> oddNext =
        Arbitraries.oneOf(
            next,
            Arbitraries.of(5L, 1.5e300, true).map(v -> (Object) v),
            Arbitraries.just(null),
            Arbitraries.just(Map.of("a", 1)));
    return Combinators.combine(records().list().ofMaxSize(6), oddNext, Arbitraries.of(true, false))
        .as(
            (records, n, hasNext) -> {
              Map<String, Object> p = new HashMap<>();
              p.put("data", records);
              if (hasNext) {
                p.put("next", n);
              }
              return p;
            });
  }

  private static Arbitrary<Object> records() {
    Arbitrary<Object> cursor =
        Arbitraries.oneOf(
            Arbitraries.of(
                    "2025-01-01T00:00:0" + "1Z",
                    "2025-01-01T00:00:05Z",
                    "2025-01-01",
                    "not a time",
                    "",
                    "x".repeat(17_000))
                .map(v -> (Object) v),
            Arbitraries.of(7L, -1L, Long.MAX_VALUE, 1.5, 1e300, 1700000000.123)
                .map(v -> (Object) v),
            Arbitraries.of(
                    new java.math.BigInteger("123456789012345678901234567890"),
                    new java.math.BigDecimal("1e400"),
                    new java.math.BigDecimal("1e99999999"))
                .map(v -> (Object) v),
            Arbitraries.of(true, false).map(v -> (Object) v),
            Arbitraries.just(null),
            Arbitraries.just(List.of(1, 2)),
            Arbitraries.just(Map.of("t", 1)));
    Arbitrary<Object> id =
        Arbitraries.oneOf(Arbitraries.longs().between(0, 20).map(v -> (Object) v), cursor);
    Arbitrary<Object> object =
        Combinators.combine(
                id, cursor, Arbitraries.of(true, false), Arbitraries.of(true, false), extra())
            .as(
                (i, c, withCursor, withId, x) -> {
                  Map<String, Object> r = new HashMap<>();
                  if (withId) {
                    r.put("id", i);
                  }
                  if (withCursor) {
                    r.put("updated_at", c);
                  }
                  if (x != null) {
                    r.put("x", x);
                  }
                  return (Object) r;
                });
    return Arbitraries.frequencyOf(Tuple.of(8, object), Tuple.of(1, cursor));
  }

  /** A field beside the cursor: nothing, or a number out of range. */
  private static Arbitrary<Object> extra() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.just(null)),
        Tuple.of(
            1,
            Arbitraries.of(
                    new java.math.BigInteger("1234567890123456789012345"),
                    new java.math.BigDecimal("-1e400"),
                    "text")
                .map(v -> (Object) v)));
  }

  private static byte[] json(Object value) {
    return write(value);
  }

  private static byte[] write(Object page) {
    try {
      return JSON.writeValueAsBytes(page);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
