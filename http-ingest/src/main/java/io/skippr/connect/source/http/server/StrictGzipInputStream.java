package io.skippr.connect.source.http.server;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Decompresses a gzip body (RFC 1952) strictly: each member's header, CRC-32 and length are
 * checked, members that follow are decoded in turn, and bytes after a member that do not start
 * another member are an error. The JDK's GZIPInputStream ends the stream at such bytes without a
 * word, so rows after a damaged member were dropped while the request was answered 204.
 */
final class StrictGzipInputStream extends InputStream {

  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  private final PushbackInputStream in;
  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private final byte[] buf;
  private int bufLength;
  private boolean eof;

  StrictGzipInputStream(InputStream in, int bufferSize) throws IOException {
    this.buf = new byte[bufferSize];
    this.in = new PushbackInputStream(in, bufferSize);
    if (!readHeader()) {
      throw new EOFException("empty gzip body");
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (!eof) {
      int n;
      try {
        n = inflater.inflate(b, off, len);
      } catch (DataFormatException e) {
        throw new ZipException("invalid gzip data: " + e.getMessage());
      }
      if (n > 0) {
        crc.update(b, off, n);
        return n;
      }
      if (inflater.finished()) {
        endMember();
      } else if (inflater.needsDictionary()) {
        throw new ZipException("invalid gzip data: a preset dictionary");
      } else if (inflater.needsInput()) {
        bufLength = in.read(buf, 0, buf.length);
        if (bufLength < 0) {
          throw new EOFException("the gzip body ends inside compressed data");
        }
        inflater.setInput(buf, 0, bufLength);
      }
    }
    return -1;
  }

  /** Checks the member's trailer, then starts the next member or ends the stream. */
  private void endMember() throws IOException {
    int unused = inflater.getRemaining();
    if (unused > 0) {
      in.unread(buf, bufLength - unused, unused);
    }
    long expectedCrc = readInt();
    long expectedSize = readInt();
    if (expectedCrc != crc.getValue()
        || expectedSize != (inflater.getBytesWritten() & 0xffffffffL)) {
      throw new ZipException("corrupt gzip trailer (CRC-32 or length does not match the data)");
    }
    inflater.reset();
    crc.reset();
    eof = !readHeader();
  }

  /** Reads a member header; false at a clean end of the body. */
  private boolean readHeader() throws IOException {
    int first = in.read();
    if (first < 0) {
      return false;
    }
    CRC32 headerCrc = new CRC32();
    headerCrc.update(first);
    if (first != 0x1f || next(headerCrc) != 0x8b) {
      throw new ZipException("not gzip data where a gzip member should start");
    }
    if (next(headerCrc) != 8) {
      throw new ZipException("unsupported gzip compression method");
    }
    int flags = next(headerCrc);
    for (int i = 0; i < 6; i++) {
      next(headerCrc); // time, extra flags, operating system
    }
    skipOptionalFields(flags, headerCrc);
    return true;
  }

  /** The extra field, name and comment a header may have, and its own CRC when it has one. */
  private void skipOptionalFields(int flags, CRC32 headerCrc) throws IOException {
    if ((flags & FEXTRA) != 0) {
      int length = next(headerCrc) | next(headerCrc) << 8;
      for (int i = 0; i < length; i++) {
        next(headerCrc);
      }
    }
    for (int field : new int[] {FNAME, FCOMMENT}) {
      if ((flags & field) != 0) {
        while (next(headerCrc) != 0) {
          // a zero-terminated name or comment
        }
      }
    }
    if ((flags & FHCRC) != 0) {
      int expected = (int) (headerCrc.getValue() & 0xffff);
      if ((next(null) | next(null) << 8) != expected) {
        throw new ZipException("corrupt gzip header");
      }
    }
  }

  private int next(CRC32 checksum) throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException("the gzip body ends inside a header or trailer");
    }
    if (checksum != null) {
      checksum.update(b);
    }
    return b;
  }

  private long readInt() throws IOException {
    long value = 0;
    for (int i = 0; i < 4; i++) {
      value |= (long) next(null) << (8 * i);
    }
    return value;
  }

  @Override
  public void close() throws IOException {
    inflater.end();
    in.close();
  }
}
