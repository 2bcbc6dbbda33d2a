package io.skippr.connect.source.poll.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.fuzz.FuzzShare;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Link headers (RFC 8288) as servers write them, with quoted parameters that hold ';', ',', '<>',
 * escaped quotes and even "rel=next", several relations per link, any case and spacing, split over
 * several header lines: the next link is the first whose relations include next. Anything else
 * gives an answer too, never an exception.
 */
class LinkHeaderFuzzTest {

  /** One link-value as written, and whether its relations include next. */
  record Link(String text, String uri, boolean next) {}

  @Property
  void theNextLinkIsTheFirstWhoseRelationsIncludeNext(@ForAll("headers") List<List<Link>> fields) {
    List<String> values = new ArrayList<>();
    Optional<String> expected = Optional.empty();
    for (List<Link> field : fields) {
      values.add(String.join(", ", field.stream().map(Link::text).toList()));
      for (Link l : field) {
        if (expected.isEmpty() && l.next()) {
          expected = Optional.of(l.uri());
        }
      }
    }
    assertThat(LinkHeader.next(values)).as("%s", values).isEqualTo(expected);
  }

  @Property
  @FuzzShare(10)
  void anyHeaderGivesAnAnswer(@ForAll("garbage") List<String> values) {
    assertThat(LinkHeader.next(values)).isEqualTo(LinkHeader.next(values));
  }

  @Provide
  Arbitrary<List<List<Link>>> headers() {
    return links().list().ofMinSize(1).ofMaxSize(3).list().ofMinSize(1).ofMaxSize(3);
  }

  @Provide
  Arbitrary<List<String>> garbage() {
    Arbitrary<String> pieces =
        Arbitraries.of(
                "<",
                ">",
                ";",
                ",",
                "\"",
                "\\",
                "=",
                " ",
                "rel",
                "next",
                "REL",
                "a",
                "<a>",
                "rel=next",
                "; rel=\"next\"")
            .list()
            .ofMaxSize(30)
            .map(p -> String.join("", p));
    Arbitrary<String> soup = Hostile.soup(20).map(b -> new String(b, StandardCharsets.ISO_8859_1));
    return Arbitraries.oneOf(pieces, soup).list().ofMaxSize(3);
  }

  private static Arbitrary<Link> links() {
    Arbitrary<String> uri =
        Arbitraries.of(
            "https://api.example.com/i?page=2",
            "/items?page=3&x=a,b",
            "?p=4;q",
            "",
            "next",
            "http://h/\"q\"");
    Arbitrary<List<String>> rels =
        Arbitraries.of(
                "next", "NEXT", "Next", "prev", "last", "first", "nextish", "http://e.com/rel/next")
            .list()
            .ofMinSize(0)
            .ofMaxSize(3);
    Arbitrary<List<String>> others =
        Arbitraries.of(
                "title=\"a; rel=next\"",
                "title=\"x, <https://evil/>; rel=next\"",
                "title=\"say \\\"hi\\\"\"",
                "type=text/html",
                "hreflang=de",
                "title*=UTF-8'de'n%c3%a4chste")
            .list()
            .ofMaxSize(2);
    Arbitrary<Boolean> quoted = Arbitraries.of(true, false);
    Arbitrary<String> space = Arbitraries.of("", " ", "  ", "\t");
    return Combinators.combine(uri, rels, others, quoted, space)
        .as(
            (u, r, o, q, s) -> {
              StringBuilder text = new StringBuilder("<").append(u).append(">");
              for (String param : o) {
                text.append(s).append(";").append(s).append(param);
              }
              boolean next = false;
              if (!r.isEmpty()) {
                boolean asToken = !q && r.size() == 1;
                String value = String.join(" ", r);
                text.append(s).append(";").append(s).append("rel").append(s).append("=").append(s);
                text.append(asToken ? value : "\"" + value + "\"");
                next = r.stream().anyMatch(x -> x.equalsIgnoreCase("next"));
              }
              return new Link(text.toString(), u, next);
            });
  }
}
