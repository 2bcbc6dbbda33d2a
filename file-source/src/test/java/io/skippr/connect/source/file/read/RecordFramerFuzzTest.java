package io.skippr.connect.source.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.fuzz.ChunkedBytes;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * The framer against a model of lines, on hostile content (CR, LF, CRLF and LF CR mixes, NUL, byte
 * order marks, invalid UTF-8, lines over the limit, some over the 64 KiB buffer) read in chunks of
 * random sizes: every line is one frame with its positions, line number and content, a line over
 * the limit is cut to a preview, and nothing depends on how the bytes arrived.
 */
public class RecordFramerFuzzTest {

  /** What the framer must hand out for one line. */
  record Expected(boolean overlong, byte[] content, long start, long end, long line, int lines) {}

  @Property
  void everyLineIsOneFrameWhateverItHoldsAndHoweverItArrives(
      @ForAll("contents") byte[] content,
      @ForAll @IntRange(min = 1, max = 300) int maxBytes,
      @ForAll long chunking)
      throws IOException {
    ChunkedBytes source = new ChunkedBytes(content, chunking);
    List<Frame> frames = frames(new RecordFramer(source, Boundary.lines(), maxBytes, 1));
    List<Expected> expected = lines(content, maxBytes);
    assertThat(frames).hasSameSizeAs(expected);
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      Expected e = expected.get(i);
      assertThat(f.kind())
          .as("kind of frame %d", i)
          .isEqualTo(e.overlong() ? Frame.Kind.OVERLONG : Frame.Kind.RECORD);
      assertThat(bytes(f)).as("content of frame %d", i).isEqualTo(e.content());
      assertThat(f.startPosition()).as("start of frame %d", i).isEqualTo(e.start());
      assertThat(f.endPosition()).as("end of frame %d", i).isEqualTo(e.end());
      assertThat(f.line()).as("line of frame %d", i).isEqualTo(e.line());
      assertThat(f.lines()).as("lines of frame %d", i).isEqualTo(e.lines());
    }
    assertThat(source.largestRead())
        .as("the buffer never grows past the limit")
        .isLessThanOrEqualTo(Math.max(64 * 1024, maxBytes + 2));
  }

  @Property
  void csvRecordsCoverTheContentOnceWithTheirLineNumbersHoweverTheyArrive(
      @ForAll("contents") byte[] content,
      @ForAll @IntRange(min = 1, max = 300) int maxBytes,
      @ForAll long chunking)
      throws IOException {
    List<Frame> whole =
        frames(
            new RecordFramer(new ChunkedBytes(content, 0), new CsvBoundary(',', '"'), maxBytes, 1));
    List<Frame> chunked =
        frames(
            new RecordFramer(
                new ChunkedBytes(content, chunking), new CsvBoundary(',', '"'), maxBytes, 1));
    assertThat(chunked.stream().map(RecordFramerFuzzTest::describe).toList())
        .isEqualTo(whole.stream().map(RecordFramerFuzzTest::describe).toList());
    long position = 0;
    long line = 1;
    for (Frame f : whole) {
      assertThat(f.startPosition()).isEqualTo(position);
      assertThat(f.line()).isEqualTo(line);
      assertThat(f.length()).isLessThanOrEqualTo(f.kind() == Frame.Kind.RECORD ? maxBytes : 4096);
      assertThat(
              newlines(content, f.startPosition(), f.endPosition())
                  + (endsOpen(content, f) ? 1 : 0))
          .as("lines of the frame at %d", f.startPosition())
          .isEqualTo(f.lines());
      position = f.endPosition();
      line += f.lines();
    }
    assertThat(position).isEqualTo(content.length);
  }

  @Provide
  Arbitrary<byte[]> contents() {
    Arbitrary<byte[]> longLine =
        Arbitraries.integers()
            .between(64_000, 100_000)
            .map(
                n -> Hostile.bytes("x".repeat(n) + (n % 3 == 0 ? "\r\n" : n % 3 == 1 ? "\n" : "")));
    return Arbitraries.frequencyOf(
        Tuple.of(16, Hostile.soup(60)),
        Tuple.of(
            1,
            Arbitraries.oneOf(Hostile.soup(20), longLine).list().ofMaxSize(3).map(Hostile::concat)),
        Tuple.of(3, Hostile.mutated(Hostile.soup(30))));
  }

  /** The model: lines end at LF; one CR before the LF (or the end) is not content. */
  static List<Expected> lines(byte[] content, int maxBytes) {
    List<Expected> out = new ArrayList<>();
    int start = 0;
    long line = 1;
    while (start < content.length) {
      int lf = indexOf(content, (byte) '\n', start);
      int end = lf < 0 ? content.length : lf;
      int next = lf < 0 ? content.length : lf + 1;
      int contentEnd = end > start && content[end - 1] == '\r' ? end - 1 : end;
      int length = contentEnd - start;
      boolean overlong = length > maxBytes;
      byte[] kept =
          Arrays.copyOfRange(content, start, start + (overlong ? Math.min(4096, length) : length));
      out.add(new Expected(overlong, kept, start, next, line, 1));
      line++;
      start = next;
    }
    return out;
  }

  /** Every record of the framer, each copied out of the framer's buffer. */
  public static List<Frame> frames(RecordFramer framer) throws IOException {
    List<Frame> out = new ArrayList<>();
    Frame f;
    while ((f = framer.next(true)) != null) {
      byte[] copy = bytes(f);
      out.add(
          new Frame(
              f.kind(),
              copy,
              0,
              copy.length,
              f.startPosition(),
              f.endPosition(),
              f.line(),
              f.lines()));
    }
    return out;
  }

  private static String describe(Frame f) {
    return f.kind()
        + " "
        + f.startPosition()
        + "-"
        + f.endPosition()
        + " line "
        + f.line()
        + "+"
        + f.lines()
        + " "
        + Arrays.toString(bytes(f));
  }

  private static byte[] bytes(Frame f) {
    return Arrays.copyOfRange(f.buf(), f.start(), f.end());
  }

  private static int indexOf(byte[] b, byte c, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static int newlines(byte[] b, long from, long to) {
    int n = 0;
    for (long i = from; i < to; i++) {
      n += b[(int) i] == '\n' ? 1 : 0;
    }
    return n;
  }

  private static boolean endsOpen(byte[] content, Frame f) {
    return f.endPosition() == content.length
        && f.endPosition() > f.startPosition()
        && content[content.length - 1] != '\n';
  }
}
