package io.skippr.connect.source.fuzz;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/** A read-only file channel over bytes in memory: fuzz cases without a disk write each. */
public final class BytesChannel extends FileChannel {

  private final byte[] data;
  private long position;

  public BytesChannel(byte[] data) {
    this.data = data;
  }

  @Override
  public int read(ByteBuffer dst) {
    int n = read(dst, position);
    if (n > 0) {
      position += n;
    }
    return n;
  }

  @Override
  public int read(ByteBuffer dst, long at) {
    if (at >= data.length) {
      return -1;
    }
    int n = (int) Math.min(dst.remaining(), data.length - at);
    dst.put(data, (int) at, n);
    return n;
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) {
    long total = 0;
    for (int i = offset; i < offset + length; i++) {
      int n = read(dsts[i]);
      if (n < 0) {
        return total == 0 ? -1 : total;
      }
      total += n;
    }
    return total;
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public FileChannel position(long newPosition) {
    position = newPosition;
    return this;
  }

  @Override
  public long size() {
    return data.length;
  }

  @Override
  public int write(ByteBuffer src) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public int write(ByteBuffer src, long at) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public FileChannel truncate(long size) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public void force(boolean metaData) {}

  @Override
  public long transferTo(long at, long count, WritableByteChannel target) {
    throw new UnsupportedOperationException();
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long at, long count) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long at, long size) {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileLock lock(long at, long size, boolean shared) {
    throw new UnsupportedOperationException();
  }

  @Override
  public FileLock tryLock(long at, long size, boolean shared) {
    throw new UnsupportedOperationException();
  }

  @Override
  protected void implCloseChannel() {}
}
