package io.skippr.connect.source.lineprotocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {

  @Test
  void splitsOnLineFeedsAndKeepsTheLastLineWithoutOne() throws IOException {
    assertThat(lines("a\nb\r\n\nc", 100, 1000)).containsExactly("a", "b\r", "", "c");
    assertThat(lines("a\n", 100, 1000)).containsExactly("a");
    assertThat(lines("", 100, 1000)).isEmpty();
  }

  @Test
  void cutsOverlongLinesAndResumesAfterThem() throws IOException {
    String longLine = "x".repeat(50);
    List<String> lines = lines("ok\n" + longLine + "\nnext\n" + longLine, 10, 3);
    assertThat(lines).containsExactly("ok", "x".repeat(11), "next", "x".repeat(11));
  }

  @Test
  void cutsAnOverlongLineTheSameWayWhateverTheChunks() throws IOException {
    // Found by LineReaderFuzzTest: a line whose LF arrived in the same read came back whole.
    String body = "abcdefgh\nok";
    assertThat(lines(body, 1, 1000)).containsExactly("ab", "ok");
    assertThat(lines(body, 1, 1)).containsExactly("ab", "ok");
  }

  @Test
  void countsLines() throws IOException {
    LineReader reader = new LineReader(stream("a\n\nb", 2), 100);
    List<Integer> numbers = new ArrayList<>();
    while (reader.next()) {
      numbers.add(reader.lineNumber());
    }
    assertThat(numbers).containsExactly(1, 2, 3);
  }

  @Test
  void handlesLinesSpanningManyReads() throws IOException {
    String big = "m v=\"" + "y".repeat(200_000) + "\"";
    assertThat(lines(big + "\n" + big, 300_000, 777)).containsExactly(big, big);
  }

  private static List<String> lines(String text, int maxLine, int chunk) throws IOException {
    LineReader reader = new LineReader(stream(text, chunk), maxLine);
    List<String> out = new ArrayList<>();
    while (reader.next()) {
      out.add(
          new String(
              reader.buffer(),
              reader.start(),
              reader.end() - reader.start(),
              StandardCharsets.UTF_8));
    }
    return out;
  }

  /** A stream that returns at most {@code chunk} bytes per read, like a socket. */
  private static InputStream stream(String text, int chunk) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, chunk));
      }
    };
  }
}
