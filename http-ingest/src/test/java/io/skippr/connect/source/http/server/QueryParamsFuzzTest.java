package io.skippr.connect.source.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.fuzz.Mutations;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Query strings (fuzz.tries cases per property): parameters encoded by a client come back decoded,
 * the first value of a name winning; any raw query (odd percent escapes, '=' and '&' anywhere,
 * invalid UTF-8) is parsed without an exception, the same way twice.
 */
class QueryParamsFuzzTest {

  private static final List<String> NAMES =
      List.of("db", "precision", "bucket", "org", "u", "p", "accept_partial", "rp", "", "d b");
  private static final List<String> VALUES =
      List.of("", "s", "ms", "ns", "x", "h", "auto", "false", "a&b=c", "\u00e9", "%zz", "+ +", "=");

  @Property
  void encodedParametersComeBackDecodedFirstValueWinning(@ForAll("pairs") List<String[]> pairs) {
    StringBuilder query = new StringBuilder();
    Map<String, String> expected = new LinkedHashMap<>();
    for (String[] pair : pairs) {
      query.append(query.length() == 0 ? "" : "&");
      query.append(URLEncoder.encode(pair[0], StandardCharsets.UTF_8));
      query.append('=').append(URLEncoder.encode(pair[1], StandardCharsets.UTF_8));
      expected.putIfAbsent(pair[0], pair[1]);
    }
    assertThat(QueryParams.parse(query.toString())).isEqualTo(expected);
  }

  @Provide
  Arbitrary<List<String[]>> pairs() {
    return Arbitraries.randomValue(
        r -> {
          int n = r.nextInt(6);
          java.util.ArrayList<String[]> out = new java.util.ArrayList<>();
          for (int i = 0; i < n; i++) {
            out.add(new String[] {pick(NAMES, r), pick(VALUES, r) + pick(VALUES, r)});
          }
          return out;
        });
  }

  @Property
  void anyRawQueryParsesTheSameWayTwice(@ForAll("raw") String raw) {
    assertThat(QueryParams.parse(raw)).isEqualTo(QueryParams.parse(raw));
  }

  @Provide
  Arbitrary<String> raw() {
    return Arbitraries.randomValue(
        r -> {
          String base = "db=x&precision=s&precision=ms&bucket=%C3%A9&&=&p=%zz&q=%F0%9F";
          byte[] mutated = Mutations.mutate(r, base.getBytes(StandardCharsets.UTF_8), 6);
          return new String(mutated, StandardCharsets.ISO_8859_1);
        });
  }

  private static String pick(List<String> from, Random r) {
    return from.get(r.nextInt(from.size()));
  }
}
