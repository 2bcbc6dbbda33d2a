package io.skippr.connect.json;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte array to write one record (or one payload, {@link JsonPayload}) into: {@link
 * java.io.ByteArrayOutputStream} without its locks, which cost a measurable share of writing a
 * small record.
 */
public final class ByteSink extends OutputStream {
  private byte[] bytes;
  private int size;

  public ByteSink(int capacity) {
    bytes = new byte[capacity];
  }

  @Override
  public void write(int b) {
    ensure(1);
    bytes[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, bytes, size, len);
    size += len;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }
}
