package io.skippr.connect.source.poll.cursor;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.poll.config.CursorConfig.CursorType;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Cursor values of every kind an API may send (numbers of any size and exponent, timestamps in
 * several spellings, text, mixes of them): checking and comparing never throws, and every cursor
 * type orders them as an order must (reflexive, antisymmetric, transitive), so the high-water mark
 * means the same whichever record set it.
 */
class CursorOrderFuzzTest {

  @Property
  void everyTypeOrdersAnyCursorsConsistently(
      @ForAll CursorType type,
      @ForAll("cursors") String a,
      @ForAll("cursors") String b,
      @ForAll("cursors") String c) {
    CursorOrder order = new CursorOrder(type);
    order.check(a);
    assertThat(order.compare(a, a)).isZero();
    int ab = Integer.signum(order.compare(a, b));
    assertThat(Integer.signum(order.compare(b, a))).isEqualTo(-ab);
    int bc = Integer.signum(order.compare(b, c));
    int ac = Integer.signum(order.compare(a, c));
    if (ab <= 0 && bc <= 0) {
      assertThat(ac).as("%s <= %s <= %s", a, b, c).isLessThanOrEqualTo(0);
    }
    if (ab == 0 && bc == 0) {
      assertThat(ac).isZero();
    }
  }

  @Provide
  Arbitrary<String> cursors() {
    Arbitrary<String> numbers =
        Arbitraries.oneOf(
            Arbitraries.longs().map(String::valueOf),
            Arbitraries.doubles().map(String::valueOf),
            Arbitraries.bigIntegers()
                .between(java.math.BigInteger.ZERO, java.math.BigInteger.TEN.pow(30))
                .map(Object::toString),
            Arbitraries.of(
                "0",
                "-0",
                "0.0",
                "1e3",
                "1E+3",
                "1000",
                "1.50",
                "1e99999999999",
                "-1e-99999999999",
                "1e2147483647",
                "9e-2147483648"));
    Arbitrary<String> timestamps =
        Arbitraries.longs()
            .between(0, 4_000_000_000L)
            .flatMap(
                s ->
                    Arbitraries.of(
                        Instant.ofEpochSecond(s).toString(),
                        Instant.ofEpochSecond(s).atOffset(ZoneOffset.ofHours(2)).toString(),
                        Instant.ofEpochSecond(s)
                            .atOffset(ZoneOffset.UTC)
                            .toLocalDateTime()
                            .toString(),
                        Instant.ofEpochSecond(s)
                            .atOffset(ZoneOffset.UTC)
                            .toLocalDate()
                            .toString()));
    Arbitrary<String> text =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(8),
            Hostile.soup(6).map(b -> new String(b, StandardCharsets.UTF_8)),
            Arbitraries.of(
                "", "a", "9a", "1a", "2024-13-45", "2024-05-01Tnope", "Infinity", "NaN"));
    return Arbitraries.frequencyOf(
        Tuple.of(3, numbers), Tuple.of(3, timestamps), Tuple.of(2, text));
  }
}
