package io.skippr.connect.source.poll.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.source.poll.http.RequestFailure;
import io.skippr.connect.source.poll.http.Response;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Token endpoint answers of every shape (fields missing or of the wrong type, tokens with line
 * breaks, non-ASCII or huge, odd expires_in values, bodies that are not JSON): an answer is either
 * one whose access token a header carries, with a lifetime of at least a second, or a failure whose
 * message shows none of the answer's strings (they may be secrets); the same both times.
 */
class TokenAnswerFuzzTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final URI TOKEN_URL = URI.create("https://login.example.com/oauth/token");

  @Property
  void anAnswerIsUsableOrAFailureThatShowsNothingOfIt(@ForAll("bodies") byte[] body) {
    Response response =
        new Response(TOKEN_URL, 200, HttpHeaders.of(Map.of(), (k, v) -> true), body);
    Object first = outcome(response);
    assertThat(outcome(response)).isEqualTo(first);
    if (first instanceof TokenAnswer a) {
      assertThatCode(
              () ->
                  HttpRequest.newBuilder(TOKEN_URL)
                      .header("Authorization", "Bearer " + a.accessToken()))
          .doesNotThrowAnyException();
      assertThat(a.expiresInSeconds()).isPositive();
      assertThat(a.refreshToken()).isNotEqualTo("");
    } else {
      String message = (String) first;
      assertThat(message).startsWith("token endpoint");
      for (String secret : strings(body)) {
        assertThat(message).doesNotContain(secret);
      }
    }
  }

  /** The answer, or the failure's message. */
  private static Object outcome(Response response) {
    try {
      return TokenAnswer.parse(response, "token endpoint " + TOKEN_URL);
    } catch (RequestFailure f) {
      return f.getMessage();
    }
  }

  /** The body's string values of four characters or more (what a message must not show). */
  private static List<String> strings(byte[] body) {
    try {
      List<String> out = new java.util.ArrayList<>();
      JSON.readTree(body)
          .forEach(
              v -> {
                if (v.isTextual() && v.asText().length() >= 4) {
                  out.add(v.asText());
                }
              });
      return out;
    } catch (java.io.IOException | RuntimeException e) {
      return List.of();
    }
  }

  @Provide
  Arbitrary<byte[]> bodies() {
    Arbitrary<Object> token =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(40).map(s -> (Object) s),
            Arbitraries.of(
                    "at-secret-1",
                    "at-secret\r\nX-Evil: 1",
                    "at-\u00e9t\u00e9",
                    "at secret",
                    "",
                    "x".repeat(20_000))
                .map(s -> (Object) s),
            Arbitraries.of(12345L, true, 1.5).map(v -> (Object) v),
            Arbitraries.just(null),
            Arbitraries.just(Map.of("a", "b")),
            Arbitraries.just(List.of("at-1")));
    Arbitrary<Object> expires =
        Arbitraries.oneOf(
            Arbitraries.longs().map(v -> (Object) v),
            Arbitraries.of(0L, -1L, Long.MAX_VALUE, Long.MIN_VALUE).map(v -> (Object) v),
            Arbitraries.of(1e300, -1e300, 0.5, 3599.9).map(v -> (Object) v),
            Arbitraries.of("3600", "-5", "1e3", "soon", "", "999999999999", "9999999999999")
                .map(v -> (Object) v),
            Arbitraries.of(new java.math.BigInteger("123456789012345678901234567890"))
                .map(v -> (Object) v),
            Arbitraries.just(null),
            Arbitraries.just(List.of(1)));
    Arbitrary<byte[]> answer =
        Combinators.combine(
                token, token, expires, Arbitraries.of(true, false), Arbitraries.of(true, false))
            .as(
                (access, refresh, exp, withRefresh, withExpiry) -> {
                  Map<String, Object> m = new HashMap<>();
                  m.put("access_token", access);
                  m.put("token_type", "Bearer");
                  if (withRefresh) {
                    m.put("refresh_token", refresh);
                  }
                  if (withExpiry) {
                    m.put("expires_in", exp);
                  }
                  return write(m);
                });
    return Arbitraries.frequencyOf(
        Tuple.of(6, answer),
        Tuple.of(2, Hostile.mutated(answer)),
        Tuple.of(1, Hostile.soup(20)),
        Tuple.of(
            1,
            Arbitraries.of("[]", "null", "\"at-1\"", "<html>login</html>", "")
                .map(Hostile::bytes)));
  }

  private static byte[] write(Object value) {
    try {
      return JSON.writeValueAsBytes(value);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
