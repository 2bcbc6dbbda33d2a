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

  private final FileChannel channel;
  private final long start;
  private InputStream in;
  private long position;

  /** The gzip content of {@code channel}, to be read from {@code position} on. */
  public GzipSource(FileChannel channel, long position) {
    this.channel = channel;
    this.start = position;
    this.position = position;
  }

  /**
   * Opens the content at the first read (the reader reads the header at once), so a file that is
   * not gzip at all, or is empty, fails a read like a file that breaks later.
   */
  private InputStream opened() throws IOException {
    if (in == null) {
      in = new GZIPInputStream(Channels.newInputStream(channel.position(0)), BUFFER);
      position = 0;
      skipTo(start);
    }
    return in;
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
    int n = opened().read(b, off, len);
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
    channel.close();
  }
}
