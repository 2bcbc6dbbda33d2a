package io.skippr.connect.source.lineprotocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Bodies of short, empty and over-long lines, read in chunks of any size (fuzz.tries cases): the
 * reader returns exactly the lines a split on LF gives, each over-long line cut to the limit plus
 * one byte (so the parser rejects it), numbered from 1, and never holds more than its buffer of
 * max(64 KiB, limit + 2) bytes however long a line is.
 */
class LineReaderFuzzTest {

  @Property
  void readsWhatASplitOnLineFeedsGives(
      @ForAll("bodies") byte[] body,
      @ForAll @IntRange(min = 1, max = 300) int maxLine,
      @ForAll @IntRange(min = 1, max = 5000) int chunk)
      throws IOException {
    LineReader reader = new LineReader(chunked(body, chunk), maxLine);
    List<byte[]> expected = split(body, maxLine);
    List<byte[]> lines = new ArrayList<>();
    while (reader.next()) {
      assertThat(reader.lineNumber()).isEqualTo(lines.size() + 1);
      assertThat(reader.buffer().length).isLessThanOrEqualTo(Math.max(64 * 1024, maxLine + 2));
      lines.add(Arrays.copyOfRange(reader.buffer(), reader.start(), reader.end()));
    }
    assertThat(lines).hasSameSizeAs(expected);
    for (int i = 0; i < lines.size(); i++) {
      assertThat(lines.get(i)).as("line " + (i + 1)).isEqualTo(expected.get(i));
    }
  }

  @Provide
  Arbitrary<byte[]> bodies() {
    return Arbitraries.randomValue(LineReaderFuzzTest::body);
  }

  /** Lines of 0 to 700 bytes (any byte but LF, CR often), sometimes a last one without LF. */
  private static byte[] body(Random random) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int lines = random.nextInt(12);
    for (int l = 0; l < lines; l++) {
      int length = random.nextInt(4) == 0 ? random.nextInt(700) : random.nextInt(40);
      for (int i = 0; i < length; i++) {
        int b = random.nextInt(8) == 0 ? '\r' : random.nextInt(256);
        out.write(b == '\n' ? ' ' : b);
      }
      if (l < lines - 1 || random.nextBoolean()) {
        out.write('\n');
      }
    }
    return out.toByteArray();
  }

  /** The oracle: split on LF, no line after a final LF, each line cut to maxLine + 1 bytes. */
  private static List<byte[]> split(byte[] body, int maxLine) {
    List<byte[]> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= body.length; i++) {
      if (i == body.length || body[i] == '\n') {
        if (i < body.length || i > start) {
          out.add(Arrays.copyOfRange(body, start, Math.min(i, start + maxLine + 1)));
        }
        start = i + 1;
      }
    }
    return out;
  }

  /** At most {@code chunk} bytes per read, like a socket. */
  private static InputStream chunked(byte[] body, int chunk) {
    return new ByteArrayInputStream(body) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, chunk));
      }
    };
  }
}
