package io.skippr.connect.source.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.fuzz.BytesChannel;
import io.skippr.connect.source.fuzz.ChunkedBytes;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Gzip files cut short, with bytes changed or garbage appended: reading gives the lines of the
 * content up to where it breaks and then a {@link ZipException} or {@link EOFException} (which the
 * task turns into one rejection of the rest), never another failure; a file cut short gives exactly
 * the lines before the cut.
 */
class GzipSourceFuzzTest {

  /** What reading a file gave: its frames, and the failure that ended it, if any. */
  record Read(List<String> frames, IOException failure) {}

  @Property
  void aBrokenGzipGivesItsLinesUpToTheBreakThenAGzipError(
      @ForAll("contents") byte[] content, @ForAll("contents") byte[] more, @ForAll long seed)
      throws IOException {
    byte[] gzip = gzip(content);
    Read intact = read(gzip);
    assertThat(intact.failure()).isNull();
    assertThat(intact.frames()).isEqualTo(plain(content));
    Read members = read(concat(gzip, gzip(more)));
    assertThat(members.failure()).isNull();
    assertThat(members.frames()).isEqualTo(plain(concat(content, more)));
    Random random = new Random(seed);
    Read truncated = read(Arrays.copyOf(gzip, random.nextInt(gzip.length)));
    assertThat(truncated.failure()).isInstanceOfAny(ZipException.class, EOFException.class);
    assertPrefix(truncated, intact);
    Read garbage = read(concat(gzip, Hostile.mutate(more, random)));
    if (garbage.failure() != null) {
      assertThat(garbage.failure()).isInstanceOfAny(ZipException.class, EOFException.class);
      assertPrefix(garbage, intact);
      assertThat(garbage.frames().size())
          .as("every line of the whole member")
          .isGreaterThanOrEqualTo(intact.frames().size() - 1);
    }
    byte[] changed = gzip.clone();
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      changed[random.nextInt(changed.length)] = (byte) random.nextInt(256);
    }
    Read corrupt = read(changed);
    if (corrupt.failure() != null) {
      assertThat(corrupt.failure()).isInstanceOfAny(ZipException.class, EOFException.class);
    }
  }

  private static void assertPrefix(Read broken, Read intact) {
    assertThat(broken.frames().size()).isLessThanOrEqualTo(intact.frames().size());
    assertThat(broken.frames())
        .as("the lines before the break")
        .isEqualTo(intact.frames().subList(0, broken.frames().size()));
  }

  @Provide
  Arbitrary<byte[]> contents() {
    return Hostile.soup(80);
  }

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(content);
    }
    return out.toByteArray();
  }

  private static List<String> plain(byte[] content) throws IOException {
    return frames(new ChunkedBytes(content, 0), new ArrayList<>());
  }

  private static Read read(byte[] file) throws IOException {
    List<String> frames = new ArrayList<>();
    try (GzipSource source = new GzipSource(new BytesChannel(file), 0)) {
      return new Read(frames(source, frames), null);
    } catch (ZipException | EOFException e) {
      return new Read(frames, e);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** The frames of {@code source} into {@code frames}, until it ends or fails. */
  private static List<String> frames(ByteSource source, List<String> frames) throws IOException {
    RecordFramer framer = new RecordFramer(source, Boundary.lines(), 100, 1);
    Frame f;
    while ((f = framer.next(true)) != null) {
      frames.add(
          f.kind()
              + " "
              + f.startPosition()
              + " "
              + new String(f.buf(), f.start(), f.length(), StandardCharsets.ISO_8859_1));
    }
    return frames;
  }
}
