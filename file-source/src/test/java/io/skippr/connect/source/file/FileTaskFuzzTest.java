package io.skippr.connect.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.source.file.track.FileOffset;
import io.skippr.connect.testkit.fuzz.FuzzShare;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Generated files through a real task (polls, commits, a crash and a restart at random points):
 * every good line comes out once, in order, with the offset after it; every bad line is one
 * rejection naming its file, line, byte offset and reason; blank lines give nothing; a line of
 * unknown quality gives exactly one of the two. Files may start with a byte order mark, mix LF and
 * CRLF, end without a line break, be gzip-compressed and hold lines over {@code
 * file.max.line.bytes}.
 */
class FileTaskFuzzTest {

  private static final int MAX_LINE = 256;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the task must make of a line. */
  enum Outcome {
    RECORD,
    REJECTED,
    NOTHING,
    /** A record or a rejection, one of them. */
    EITHER
  }

  /** One generated line (without its line break), its outcome and a record's value. */
  record Line(byte[] bytes, Outcome outcome, Object value) {
    Line(byte[] bytes, Outcome outcome) {
      this(bytes, outcome, null);
    }

    @Override
    public String toString() {
      return outcome + " " + new String(bytes, StandardCharsets.UTF_8).replace("\r", "\\r");
    }
  }

  /** A generated file: its lines and how it is written. */
  record Sample(List<Line> lines, boolean bom, boolean crlf, boolean lastOpen, boolean gzip) {}

  /** Where a line ends up in the file's content. */
  record Placed(Line line, long number, long start, long end) {}

  @Property
  @FuzzShare(100)
  void ndjsonLinesComeOutOnceOrAreRejectedWhereTheyAre(
      @ForAll("ndjsonFiles") Sample sample, @ForAll long seed) throws Exception {
    run(sample, "ndjson", "x.ndjson", seed);
  }

  @Property
  @FuzzShare(100)
  void csvRowsComeOutOnceOrAreRejectedWhereTheyAre(
      @ForAll("csvFiles") Sample sample, @ForAll long seed) throws Exception {
    run(sample, "csv", "x.csv", seed);
  }

  private static void run(Sample sample, String format, String name, long seed) throws Exception {
    Path dir = Files.createTempDirectory("file-fuzz");
    try {
      List<Placed> placed = write(sample, dir.resolve(name + (sample.gzip() ? ".gz" : "")));
      Map<String, String> props = new HashMap<>();
      props.put("file.dir", dir.toString());
      props.put("file.format", format);
      props.put("topic", "rows");
      props.put("rejections.topic", "bad");
      props.put("file.max.line.bytes", Integer.toString(MAX_LINE));
      Random random = new Random(seed);
      props.put("file.batch.max.records", Integer.toString(1 + random.nextInt(12)));
      try (FileTaskHarness h = new FileTaskHarness(props).start()) {
        pollAndCrash(h, random);
        h.drain();
        check(placed, h.committedAndPending(), name);
      }
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /** Some polls, a commit, some more polls, then a crash that loses what was not committed. */
  private static void pollAndCrash(FileTaskHarness h, Random random) throws InterruptedException {
    for (int i = random.nextInt(4); i > 0; i--) {
      h.poll();
    }
    h.commit();
    for (int i = random.nextInt(3); i > 0; i--) {
      h.poll();
    }
    h.crash();
  }

  private static void check(List<Placed> placed, List<SourceRecord> out, String name) {
    int next = 0;
    for (Placed p : placed) {
      boolean expectsOne = p.line().outcome() != Outcome.NOTHING;
      boolean hasOne =
          next < out.size()
              && FileOffset.fromMap(out.get(next).sourceOffset()).position() == p.end();
      assertThat(hasOne)
          .as("an output for %s (line %d)", p.line(), p.number())
          .isEqualTo(expectsOne);
      if (!hasOne) {
        continue;
      }
      SourceRecord r = out.get(next++);
      assertThat(FileOffset.fromMap(r.sourceOffset()).line()).isGreaterThanOrEqualTo(p.number());
      if (r.topic().equals("bad")) {
        assertThat(p.line().outcome()).as("rejected: %s", p.line()).isNotEqualTo(Outcome.RECORD);
        Struct bad = (Struct) r.value();
        assertThat(bad.getString("file")).startsWith(name);
        assertThat(bad.getInt64("line")).isEqualTo(p.number());
        assertThat(bad.getInt64("byte_offset")).isEqualTo(p.start());
        assertThat(bad.getString("reason")).isNotBlank();
        if (p.line().bytes().length > MAX_LINE) {
          assertThat(bad.getString("reason")).isEqualTo("line longer than " + MAX_LINE + " bytes");
        }
      } else {
        assertThat(p.line().outcome()).as("accepted: %s", p.line()).isNotEqualTo(Outcome.REJECTED);
        assertThat(r.topic()).isEqualTo("rows");
        if (p.line().value() != null) {
          assertThat(r.value()).isEqualTo(p.line().value());
        }
      }
    }
    assertThat(out).as("nothing more than one output per line").hasSize(next);
  }

  /** Writes the file; returns each line with its number and byte range in the content. */
  private static List<Placed> write(Sample s, Path file) throws IOException {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    if (s.bom()) {
      content.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    }
    List<Placed> placed = new ArrayList<>();
    long number = 1;
    for (int i = 0; i < s.lines().size(); i++) {
      Line line = s.lines().get(i);
      long start = content.size();
      content.writeBytes(line.bytes());
      boolean last = i == s.lines().size() - 1;
      if (!(last && s.lastOpen())) {
        content.writeBytes(s.crlf() ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
      }
      boolean empty = last && s.lastOpen() && line.bytes().length == 0;
      placed.add(
          new Placed(
              empty ? new Line(line.bytes(), Outcome.NOTHING) : line,
              number,
              start,
              content.size()));
      number += 1 + newlines(line.bytes());
    }
    byte[] bytes = content.toByteArray();
    if (s.gzip()) {
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
        out.write(bytes);
      }
    } else {
      Files.write(file, bytes);
    }
    return placed;
  }

  private static int newlines(byte[] b) {
    int n = 0;
    for (byte c : b) {
      n += c == '\n' ? 1 : 0;
    }
    return n;
  }

  @Provide
  Arbitrary<Sample> ndjsonFiles() {
    Arbitrary<Line> good =
        Arbitraries.strings()
            .ofMaxLength(20)
            .map(
                s -> new Line(Hostile.bytes(json(Map.of("s", s))), Outcome.RECORD, Map.of("s", s)));
    Arbitrary<Line> bad =
        Arbitraries.of(
                "{\"id\":",
                "[1,2]",
                "42",
                "{\"a\":1} x",
                "{\"a\":\"x\u0000\"}",
                "\u0000{\"a\":1}",
                "{\"n\":123456789012345678901234567890}",
                "{\"n\":1e999}",
                "{\"pad\":\"" + "p".repeat(MAX_LINE) + "\"}")
            .map(s -> new Line(Hostile.bytes(s), Outcome.REJECTED));
    Line invalidUtf8 =
        new Line(
            new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '(', '"', '}'},
            Outcome.REJECTED);
    Arbitrary<Line> blank =
        Arbitraries.of("", "  ", "\t ").map(s -> new Line(Hostile.bytes(s), Outcome.NOTHING));
    Arbitrary<Line> any = Hostile.soup(12).map(b -> hostileLine(b, FileTaskFuzzTest::ndjsonBlank));
    return samples(good, bad, invalidUtf8, blank, any);
  }

  @Provide
  Arbitrary<Sample> csvFiles() {
    Arbitrary<String> field =
        Arbitraries.of("a", "b", " ", ",", "\"", "\r\n", "\n", "\u00e9", "\r")
            .list()
            .ofMaxSize(5)
            .map(parts -> String.join("", parts));
    Arbitrary<Line> good =
        Combinators.combine(field, field)
            .as(
                (a, b) ->
                    new Line(
                        Hostile.bytes("1," + quoted(a) + "," + quoted(b)),
                        Outcome.RECORD,
                        Map.of("id", "1", "s", a, "t", b)));
    Arbitrary<Line> bad =
        Arbitraries.of(
                "1,2",
                "1,2,3,4",
                "\"ab\"cd,x,y",
                "a\rb,x,y",
                "\u0000,x,y,z",
                "1,2," + "q".repeat(MAX_LINE))
            .map(s -> new Line(Hostile.bytes(s), Outcome.REJECTED));
    Line invalidUtf8 =
        new Line(new byte[] {'1', ',', (byte) 0xC3, '(', ',', 'z'}, Outcome.REJECTED);
    Arbitrary<Line> blank = Arbitraries.just(new Line(new byte[0], Outcome.NOTHING));
    Arbitrary<Line> any =
        Hostile.soup(12)
            .map(b -> hostileLine(b, line -> line.length == 0))
            .filter(l -> new String(l.bytes(), StandardCharsets.ISO_8859_1).indexOf('"') < 0);
    Arbitrary<Sample> rows = samples(good, bad, invalidUtf8, blank, any);
    return rows.map(
        s -> {
          List<Line> lines = new ArrayList<>();
          lines.add(new Line(Hostile.bytes("id,s,t"), Outcome.NOTHING));
          lines.addAll(s.lines());
          return new Sample(lines, s.bom(), s.crlf(), s.lastOpen(), s.gzip());
        });
  }

  /** Files of good, bad, invalid UTF-8, blank and unknown lines, written in any way. */
  private static Arbitrary<Sample> samples(
      Arbitrary<Line> good,
      Arbitrary<Line> bad,
      Line invalidUtf8,
      Arbitrary<Line> blank,
      Arbitrary<Line> any) {
    Arbitrary<Line> lines =
        Arbitraries.frequencyOf(
            Tuple.of(6, good),
            Tuple.of(3, bad),
            Tuple.of(1, Arbitraries.just(invalidUtf8)),
            Tuple.of(1, blank),
            Tuple.of(2, any));
    Arbitrary<Boolean> flag = Arbitraries.of(true, false);
    return Combinators.combine(lines.list().ofMaxSize(30), flag, flag, flag, flag).as(Sample::new);
  }

  /** A line of unknown quality: skipped when blank, else a record or a rejection. */
  private static Line hostileLine(byte[] soup, java.util.function.Predicate<byte[]> blank) {
    byte[] line = Hostile.oneLine(soup);
    int end = line.length;
    while (end > 0 && line[end - 1] == '\r') {
      end--; // a CR before the line break is the break's
    }
    line = java.util.Arrays.copyOf(line, end);
    if (line.length >= 3
        && line[0] == (byte) 0xEF
        && line[1] == (byte) 0xBB
        && line[2] == (byte) 0xBF) {
      line[0] = ' '; // at the start of a file it would be the file's byte order mark
    }
    return new Line(line, blank.test(line) ? Outcome.NOTHING : Outcome.EITHER);
  }

  private static boolean ndjsonBlank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  private static String quoted(String field) {
    return "\"" + field.replace("\"", "\"\"") + "\"";
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
