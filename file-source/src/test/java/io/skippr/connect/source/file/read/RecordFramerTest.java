package io.skippr.connect.source.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.fuzz.ChunkedBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordFramerTest {

  record Seen(Frame.Kind kind, String text, long start, long end, long line, int lines) {}

  static List<Seen> all(RecordFramer framer, boolean finished) throws IOException {
    List<Seen> out = new ArrayList<>();
    Frame f;
    while ((f = framer.next(finished)) != null) {
      out.add(
          new Seen(
              f.kind(),
              new String(f.buf(), f.start(), f.length(), StandardCharsets.UTF_8),
              f.startPosition(),
              f.endPosition(),
              f.line(),
              f.lines()));
    }
    return out;
  }

  @Test
  void linesWithLfAndCrlfCarryTheirBytePositionsAndNumbers() throws IOException {
    RecordFramer framer =
        new RecordFramer(ChunkedBytes.of("a\r\nbb\n\nccc", false), Boundary.lines(), 100, 1);
    assertThat(all(framer, true))
        .containsExactly(
            new Seen(Frame.Kind.RECORD, "a", 0, 3, 1, 1),
            new Seen(Frame.Kind.RECORD, "bb", 3, 6, 2, 1),
            new Seen(Frame.Kind.RECORD, "", 6, 7, 3, 1),
            new Seen(Frame.Kind.RECORD, "ccc", 7, 10, 4, 1));
    assertThat(framer.position()).isEqualTo(10);
    assertThat(framer.nextLine()).isEqualTo(5);
  }

  @Test
  void aGrowingFileKeepsItsUnterminatedLastLineUntilTheLfArrives() throws IOException {
    ChunkedBytes file = ChunkedBytes.of("one\ntw", true);
    RecordFramer framer = new RecordFramer(file, Boundary.lines(), 100, 1);
    assertThat(all(framer, false)).extracting(Seen::text).containsExactly("one");
    assertThat(framer.holdsPartialRecord()).isTrue();
    file.append("o\nthree\n");
    assertThat(all(framer, false))
        .containsExactly(
            new Seen(Frame.Kind.RECORD, "two", 4, 8, 2, 1),
            new Seen(Frame.Kind.RECORD, "three", 8, 14, 3, 1));
    assertThat(framer.holdsPartialRecord()).isFalse();
  }

  @Test
  void anOverlongLineIsSkippedWithoutBufferingItAndTheNextLineIsRead() throws IOException {
    String huge = "x".repeat(3_000_000);
    ChunkedBytes file = ChunkedBytes.of("ok\n" + huge + "\nafter\n", false);
    RecordFramer framer = new RecordFramer(file, Boundary.lines(), 1000, 1);
    List<Seen> seen = all(framer, true);
    assertThat(seen).hasSize(3);
    assertThat(seen.get(1).kind()).isEqualTo(Frame.Kind.OVERLONG);
    assertThat(seen.get(1).text()).hasSize(RecordFramer.PREVIEW_BYTES);
    assertThat(seen.get(1).start()).isEqualTo(3);
    assertThat(seen.get(1).end()).isEqualTo(3 + huge.length() + 1);
    assertThat(seen.get(1).line()).isEqualTo(2);
    assertThat(seen.get(2))
        .isEqualTo(new Seen(Frame.Kind.RECORD, "after", 3_000_004, 3_000_010, 3, 1));
    assertThat(file.largestRead())
        .as("never asked for more than its buffer")
        .isLessThanOrEqualTo(64 * 1024);
  }

  @Test
  void aLineOfExactlyTheLimitPassesAndOneByteMoreIsOverlong() throws IOException {
    String text = "y".repeat(10) + "\r\n" + "z".repeat(11) + "\n";
    List<Seen> seen =
        all(new RecordFramer(ChunkedBytes.of(text, false), Boundary.lines(), 10, 1), true);
    assertThat(seen).extracting(Seen::kind).containsExactly(Frame.Kind.RECORD, Frame.Kind.OVERLONG);
    assertThat(seen.get(1).start()).isEqualTo(12);
    assertThat(seen.get(1).end()).isEqualTo(24);
  }

  @Test
  void anOverlongLastLineOfAGrowingFileIsReportedOnceItsLfArrives() throws IOException {
    ChunkedBytes file = ChunkedBytes.of("a\n" + "q".repeat(200), true);
    RecordFramer framer = new RecordFramer(file, Boundary.lines(), 50, 1);
    assertThat(all(framer, false)).extracting(Seen::text).containsExactly("a");
    file.append("q".repeat(100));
    assertThat(all(framer, false)).isEmpty();
    file.append("\nb\n");
    assertThat(all(framer, false))
        .extracting(Seen::kind, Seen::start, Seen::end, Seen::line)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Frame.Kind.OVERLONG, 2L, 303L, 2L),
            org.assertj.core.groups.Tuple.tuple(Frame.Kind.RECORD, 303L, 305L, 3L));
  }

  @Test
  void csvRecordsKeepQuotedNewlinesAndCountTheirLines() throws IOException {
    String text = "id,note\r\n1,\"two\r\nlines, \"\"quoted\"\"\"\r\n2,plain\r\n3,\"a\"\"\n\"";
    RecordFramer framer =
        new RecordFramer(ChunkedBytes.of(text, false), new CsvBoundary(',', '"'), 1000, 1);
    List<Seen> seen = all(framer, true);
    assertThat(seen)
        .extracting(Seen::text, Seen::line, Seen::lines)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("id,note", 1L, 1),
            org.assertj.core.groups.Tuple.tuple("1,\"two\r\nlines, \"\"quoted\"\"\"", 2L, 2),
            org.assertj.core.groups.Tuple.tuple("2,plain", 4L, 1),
            org.assertj.core.groups.Tuple.tuple("3,\"a\"\"\n\"", 5L, 2));
    assertThat(seen.get(2).start()).isEqualTo(text.indexOf("2,plain"));
  }

  @Test
  void aQuoteInsideAnUnquotedFieldIsAnOrdinaryCharacter() throws IOException {
    String text = "a,b\"c,d\ne,f\n";
    List<Seen> seen =
        all(
            new RecordFramer(ChunkedBytes.of(text, false), new CsvBoundary(',', '"'), 100, 1),
            true);
    assertThat(seen).extracting(Seen::text).containsExactly("a,b\"c,d", "e,f");
  }

  @Test
  void anUnterminatedQuoteIsCutAtTheLimitAndReadingResumesAtTheNextLine() throws IOException {
    StringBuilder text = new StringBuilder("x,\"never closed\n");
    for (int i = 0; i < 50; i++) {
      text.append("row,").append(i).append('\n');
    }
    List<Seen> seen =
        all(
            new RecordFramer(
                ChunkedBytes.of(text.toString(), false), new CsvBoundary(',', '"'), 100, 1),
            true);
    assertThat(seen.get(0).kind()).isEqualTo(Frame.Kind.OVERLONG);
    assertThat(seen.get(0).line()).isEqualTo(1);
    assertThat(seen.get(seen.size() - 1).text()).isEqualTo("row,49");
    long lastLine = seen.get(seen.size() - 1).line();
    assertThat(lastLine).isEqualTo(51);
  }

  @Test
  void positionsStayExactAcrossManyBufferRefills() throws IOException {
    StringBuilder text = new StringBuilder();
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      starts.add((long) text.length());
      text.append("line-").append(i).append(i % 7 == 0 ? "\r\n" : "\n");
    }
    List<Seen> seen =
        all(
            new RecordFramer(ChunkedBytes.of(text.toString(), false), Boundary.lines(), 64, 1),
            true);
    assertThat(seen).hasSize(20_000);
    for (int i = 0; i < seen.size(); i++) {
      assertThat(seen.get(i).start()).isEqualTo(starts.get(i));
      assertThat(seen.get(i).text()).isEqualTo("line-" + i);
      assertThat(seen.get(i).line()).isEqualTo(i + 1);
    }
  }

  @Test
  void resumingAtAPositionNumbersLinesFromThere() throws IOException {
    ChunkedBytes file = ChunkedBytes.of("a\nb\nc\n", false);
    file.skip(2); // positioned after "a\n", as a restart seeks
    List<Seen> seen = all(new RecordFramer(file, Boundary.lines(), 10, 2), true);
    assertThat(seen)
        .containsExactly(
            new Seen(Frame.Kind.RECORD, "b", 2, 4, 2, 1),
            new Seen(Frame.Kind.RECORD, "c", 4, 6, 3, 1));
  }

  @Test
  void anOverlongLinesPreviewIsItsFirstBytesHoweverTheyArrive() throws IOException {
    // Found by RecordFramerFuzzTest: read in small pieces, the preview held only the bytes
    // buffered when the limit was passed ("\\u00" instead of "\\u0000").
    for (long chunking : new long[] {0, 1, 2, 3}) {
      List<Seen> seen =
          all(
              new RecordFramer(
                  new ChunkedBytes("\\u0000\r\nnext\n".getBytes(StandardCharsets.UTF_8), chunking),
                  Boundary.lines(),
                  1,
                  1),
              true);
      assertThat(seen.get(0))
          .as("chunking %d", chunking)
          .isEqualTo(new Seen(Frame.Kind.OVERLONG, "\\u0000", 0, 8, 1, 1));
    }
  }

  @Test
  void aCsvRecordOverTheLimitIsCutTheSameWayWhetherOrNotItsEndWasBuffered() throws IOException {
    // Found by RecordFramerFuzzTest: read whole, the record below was one over-long record up to
    // its closing quote; read in pieces, it was cut at its first LF and the rest read as a row.
    byte[] text = "\"{{{{{{{{{{{{{{{\n\"\r\n".getBytes(StandardCharsets.UTF_8);
    for (long chunking : new long[] {0, 1, 2, 3}) {
      assertThat(
              all(
                  new RecordFramer(
                      new ChunkedBytes(text, chunking), new CsvBoundary(',', '"'), 12, 1),
                  true))
          .as("chunking %d", chunking)
          .containsExactly(
              new Seen(Frame.Kind.OVERLONG, "\"{{{{{{{{{{{{{{{", 0, 17, 1, 1),
              new Seen(Frame.Kind.RECORD, "\"\r\n", 17, 20, 2, 1));
    }
  }

  @Test
  void aFileEndingInsideAQuotedFieldAfterAnLfCountsThatLineOnce() throws IOException {
    // Found by RecordFramerFuzzTest: the record "\"\n" at the end of a file was counted as two
    // lines, so the offset's line number was one ahead.
    RecordFramer framer =
        new RecordFramer(ChunkedBytes.of("a\n\"b\n", false), new CsvBoundary(',', '"'), 100, 1);
    assertThat(all(framer, true))
        .containsExactly(
            new Seen(Frame.Kind.RECORD, "a", 0, 2, 1, 1),
            new Seen(Frame.Kind.RECORD, "\"b\n", 2, 5, 2, 1));
    assertThat(framer.nextLine()).isEqualTo(3);
  }
}
