package io.skippr.connect.source.file.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A plain file read with positional reads from an open channel: a renamed or unlinked file can be
 * read on, and a restart seeks straight to its byte position.
 */
public final class ChannelSource implements ByteSource {

  private final FileChannel channel;
  private long position;

  public ChannelSource(FileChannel channel, long position) {
    this.channel = channel;
    this.position = position;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = channel.read(ByteBuffer.wrap(b, off, len), position);
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
    return true;
  }

  @Override
  public long size() throws IOException {
    return channel.size();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
