package io.skippr.connect.source.fuzz;

import io.skippr.connect.source.file.read.ByteSource;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * A file's content in memory, handed out whole or in reads of seeded random sizes (1 byte up to
 * what was asked), as a pipe, a slow disk or a growing file may: what the framer makes of it must
 * not depend on how the bytes arrive. A growing file can be appended to.
 */
public final class ChunkedBytes implements ByteSource {

  private byte[] data;
  private final Random random;
  private final boolean grows;
  private int position;
  private int largestRead;

  /** A finished file; {@code seed} 0 hands out every read whole. */
  public ChunkedBytes(byte[] data, long seed) {
    this(data, seed, false);
  }

  private ChunkedBytes(byte[] data, long seed, boolean grows) {
    this.data = data;
    this.random = seed == 0 ? null : new Random(seed);
    this.grows = grows;
  }

  /** UTF-8 text read whole; {@code grows}: more may be appended, as to a followed file. */
  public static ChunkedBytes of(String text, boolean grows) {
    return new ChunkedBytes(text.getBytes(StandardCharsets.UTF_8), 0, grows);
  }

  /** Appends UTF-8 text, as a writer appends to a followed file. */
  public void append(String text) {
    byte[] more = text.getBytes(StandardCharsets.UTF_8);
    byte[] next = Arrays.copyOf(data, data.length + more.length);
    System.arraycopy(more, 0, next, data.length, more.length);
    data = next;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    largestRead = Math.max(largestRead, len);
    if (position >= data.length) {
      return -1;
    }
    int n = Math.min(len, data.length - position);
    if (random != null) {
      n = 1 + random.nextInt(n);
    }
    System.arraycopy(data, position, b, off, n);
    position += n;
    return n;
  }

  /** The most bytes one read asked for: the reader's buffer is at least this large. */
  public int largestRead() {
    return largestRead;
  }

  /** Skips {@code n} bytes, as a restart seeks to an offset. */
  public void skip(int n) {
    position += n;
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public boolean canGrow() {
    return grows;
  }

  @Override
  public long size() {
    return data.length;
  }

  @Override
  public void close() {}
}
