package io.skippr.connect.source.lineprotocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.fuzz.Mutations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.arbitraries.ListArbitrary;

/**
 * Generated and mutated line protocol (fuzz.tries cases per property: 10,000 by default, 1,000,000
 * with -Pfuzz). Generated lines are written from a model and must parse to exactly that model;
 * mutated lines (the differential corpus and generated lines, edited by {@link Mutations}) and
 * random bytes must never make the parser throw, must be rejected with a reason of the parser's own
 * (never its catch-all for unexpected exceptions), must get the same verdict from a fresh parser as
 * from one that parsed everything before, and every point accepted must survive a write and parse.
 */
class LineProtocolFuzzTest {

  private static final long NOW = 1_700_000_000_000_000_000L;
  private final LineProtocolParser warm = new LineProtocolParser(LineLimits.DEFAULT);

  // ---- generated lines: the parse is exactly the model ----

  /** A point as written: what the parser must return for its line. */
  record Model(String measurement, List<Tag> tags, List<Field> fields, Long time, String line) {}

  @Property
  void generatedLinesParseToTheirModel(@ForAll("models") Model model) {
    LineResult result = parse(warm, utf8(model.line()));
    assertThat(result).as(model.line()).isInstanceOf(Point.class);
    Point point = (Point) result;
    assertThat(point.measurement()).isEqualTo(model.measurement());
    List<Tag> sorted = new ArrayList<>(model.tags());
    sorted.sort(Comparator.comparing(t -> utf8(t.key()), Arrays::compareUnsigned));
    assertThat(point.tags()).isEqualTo(sorted);
    assertThat(point.fields()).isEqualTo(model.fields());
    assertThat(point.timeNanos()).isEqualTo(model.time() == null ? NOW : model.time());
  }

  @Provide
  Arbitrary<Model> models() {
    Arbitrary<String> measurement = name(true);
    ListArbitrary<Tag> tags =
        Combinators.combine(name(false), name(false))
            .as(Tag::new)
            .list()
            .ofMaxSize(4)
            .uniqueElements(Tag::key);
    ListArbitrary<Field> fields =
        Combinators.combine(name(false), fieldValue())
            .as((key, f) -> new Field(key, f.type(), f.value()))
            .list()
            .ofMinSize(1)
            .ofMaxSize(5)
            .uniqueElements(Field::key);
    Arbitrary<Long> time =
        Arbitraries.longs().between(Precision.MIN_NANOS, Precision.MAX_NANOS).injectNull(0.3);
    Arbitrary<String> lead = Arbitraries.of("", "", " ", "\t", "  ");
    Arbitrary<String> gap = Arbitraries.of(" ", " ", "  ", "   ");
    return Combinators.combine(measurement, tags, fields, time, lead, gap, Arbitraries.of("", "\r"))
        .as(
            (m, t, f, ts, leading, space, end) -> {
              StringBuilder line = new StringBuilder(leading);
              escape(line, m, ", ");
              for (Tag tag : t) {
                escape(line.append(','), tag.key(), ",= ");
                escape(line.append('='), tag.value(), ",= ");
              }
              line.append(space);
              for (int i = 0; i < f.size(); i++) {
                escape(line.append(i == 0 ? "" : ","), f.get(i).key(), ",= ");
                line.append('=').append(written(f.get(i)));
              }
              if (ts != null) {
                line.append(space).append(ts);
              }
              return new Model(m, t, f, ts, line.append(end).toString());
            })
        .filter(LineProtocolFuzzTest::keysDistinct);
  }

  /** A field key that is also a tag key is a column clash the parser rejects. */
  private static boolean keysDistinct(Model model) {
    return model.fields().stream()
        .noneMatch(f -> model.tags().stream().anyMatch(t -> t.key().equals(f.key())));
  }

  /** A name: tokens that need escaping, multi-byte characters; never '_' or '#' first. */
  private static Arbitrary<String> name(boolean measurement) {
    Arbitrary<String> first = Arbitraries.of("a", "Z", "q", "\u00e9", "\uD83D\uDE80", "9");
    Arbitrary<String> rest =
        Arbitraries.of(
                "a",
                "b",
                "x",
                "0",
                "7",
                "_",
                "-",
                ".",
                ",",
                "=",
                " ",
                "\\",
                "\"",
                "'",
                "#",
                "/",
                "\u00e9",
                "\u20ac",
                "\uD83C\uDF6D",
                "\t")
            .list()
            .ofMaxSize(12)
            .map(l -> String.join("", l));
    return Combinators.combine(first, rest)
        .as((a, b) -> a + b)
        .filter(n -> measurement || !(n.equals("time") || n.equals("time_ns")))
        .filter(n -> !n.endsWith("\\")); // a trailing backslash escapes the separator after it
  }

  private static Arbitrary<Field> fieldValue() {
    Arbitrary<Field> floats =
        Arbitraries.doubles().filter(Double::isFinite).map(d -> new Field("", FieldType.FLOAT, d));
    Arbitrary<Field> integers = Arbitraries.longs().map(v -> new Field("", FieldType.INTEGER, v));
    Arbitrary<Field> unsigned = Arbitraries.longs().map(v -> new Field("", FieldType.UINTEGER, v));
    Arbitrary<Field> booleans =
        Arbitraries.of(true, false).map(v -> new Field("", FieldType.BOOLEAN, v));
    Arbitrary<Field> strings =
        Arbitraries.of(
                "", "a", " ", ",", "=", "\"", "\\", "\u00e9", "\uD83D\uDE80", "\t", "\r", "x")
            .list()
            .ofMaxSize(10)
            .map(l -> new Field("", FieldType.STRING, String.join("", l)));
    return Arbitraries.oneOf(floats, integers, unsigned, booleans, strings);
  }

  private static String written(Field f) {
    return switch (f.type()) {
      case FLOAT -> Double.toString((Double) f.value());
      case INTEGER -> f.value() + "i";
      case UINTEGER -> Long.toUnsignedString((Long) f.value()) + "u";
      case BOOLEAN -> (Boolean) f.value() ? "true" : "F";
      case STRING -> '"' + ((String) f.value()).replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    };
  }

  private static void escape(StringBuilder sb, String text, String special) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (special.indexOf(c) >= 0 || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
  }

  // ---- mutated lines and random bytes: robust, deterministic, round-trippable ----

  @Property
  void mutatedLinesAreRejectedWithAReasonOrRoundTrip(@ForAll("mutated") byte[] line) {
    LineResult result = parse(warm, line);
    LineResult fresh = parse(new LineProtocolParser(LineLimits.DEFAULT), line);
    assertThat(fresh).as("the same verdict from a fresh parser: " + show(line)).isEqualTo(result);
    if (result == null) {
      assertThat(isBlankOrComment(line)).as(show(line)).isTrue();
    } else if (result instanceof Rejection r) {
      assertThat(r.reason()).as(show(line)).isNotBlank().doesNotStartWith("unparseable line");
    } else {
      assertRoundTrip((Point) result, line);
    }
  }

  @Provide
  Arbitrary<byte[]> mutated() {
    List<byte[]> corpus =
        InfluxDifferentialIT.CORPUS.stream().map(LineProtocolFuzzTest::utf8).toList();
    Arbitrary<Random> random = Arbitraries.randomValue(r -> new Random(r.nextLong()));
    Arbitrary<byte[]> fromCorpus =
        random.map(r -> Mutations.mutate(r, corpus.get(r.nextInt(corpus.size())), 4));
    Arbitrary<byte[]> fromModels =
        Combinators.combine(models(), random).as((m, r) -> Mutations.mutate(r, utf8(m.line()), 4));
    Arbitrary<byte[]> noise = random.map(r -> Mutations.randomBytes(r, 64));
    return Arbitraries.frequencyOf(
            Tuple.of(4, fromCorpus), Tuple.of(1, fromModels), Tuple.of(1, noise))
        .map(LineProtocolFuzzTest::oneLine);
  }

  private void assertRoundTrip(Point point, byte[] line) {
    byte[] again = utf8(LineProtocolWriter.write(point));
    LineResult reparsed = parse(warm, again);
    assertThat(reparsed).as(show(line)).isInstanceOf(Point.class);
    Point p = (Point) reparsed;
    assertThat(p.measurement()).as(show(line)).isEqualTo(point.measurement());
    assertThat(p.tags()).as(show(line)).isEqualTo(point.tags());
    assertThat(p.fields()).as(show(line)).isEqualTo(point.fields());
    assertThat(p.timeNanos()).as(show(line)).isEqualTo(point.timeNanos());
  }

  private static LineResult parse(LineProtocolParser parser, byte[] line) {
    return parser.parseLine(line, 0, line.length, 1, Precision.NANOSECONDS, NOW);
  }

  /** The parser takes one line: an LF inside becomes a space. */
  private static byte[] oneLine(byte[] b) {
    byte[] out = b.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i] == '\n') {
        out[i] = ' ';
      }
    }
    return out;
  }

  private static boolean isBlankOrComment(byte[] line) {
    int end = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
    int i = 0;
    while (i < end && (line[i] == ' ' || line[i] == '\t')) {
      i++;
    }
    return i == end || line[i] == '#';
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String show(byte[] line) {
    StringBuilder sb = new StringBuilder("line bytes: ");
    for (byte x : line) {
      sb.append(String.format("%02x", x & 0xff));
    }
    return sb.append(" = ").append(new String(line, StandardCharsets.UTF_8)).toString();
  }
}
