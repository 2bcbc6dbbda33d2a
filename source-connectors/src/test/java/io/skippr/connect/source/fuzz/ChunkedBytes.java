package io.skippr.connect.source.fuzz;

import io.skippr.connect.source.file.read.ByteSource;
import java.util.Random;

/**
 * A finished file's content handed out in reads of seeded random sizes (1 byte up to what was
 * asked), as a pipe, a slow disk or a growing file may: what the framer makes of it must not depend
 * on how the bytes arrive.
 */
public final class ChunkedBytes implements ByteSource {

  private final byte[] data;
  private final Random random;
  private int position;
  private int largestRead;

  /** {@code seed} 0 hands out every read whole. */
  public ChunkedBytes(byte[] data, long seed) {
    this.data = data;
    this.random = seed == 0 ? null : new Random(seed);
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

  @Override
  public long position() {
    return position;
  }

  @Override
  public boolean canGrow() {
    return false;
  }

  @Override
  public long size() {
    return data.length;
  }

  @Override
  public void close() {}
}
