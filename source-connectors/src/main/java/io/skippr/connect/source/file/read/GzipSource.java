package io.skippr.connect.source.file.read;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.zip.GZIPInputStream;

/**
 * The decompressed content of a gzip file (several concatenated members read as one). Positions
 * count decompressed bytes; gzip cannot seek, so resuming at a position decompresses and discards
 * the bytes before it (without parsing them).
 */
public final class GzipSource implements ByteSource {

  private static final int BUFFER = 64 * 1024;

  private final InputStream in;
  private long position;

  /** Opens the gzip content and skips to {@code position}. */
  public GzipSource(FileChannel channel, long position) throws IOException {
    this.in = new GZIPInputStream(Channels.newInputStream(channel.position(0)), BUFFER);
    skipTo(position);
  }

  private void skipTo(long target) throws IOException {
    byte[] scratch = new byte[BUFFER];
    while (position < target) {
      int n = in.read(scratch, 0, (int) Math.min(scratch.length, target - position));
      if (n < 0) {
        return; // shorter than the position: the caller sees the end at once
      }
      position += n;
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      position += n;
    }
    return n <= 0 ? -1 : n;
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
    return -1;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
