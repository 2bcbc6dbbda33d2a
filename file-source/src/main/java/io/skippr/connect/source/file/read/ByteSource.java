package io.skippr.connect.source.file.read;

import java.io.Closeable;
import java.io.IOException;

/** The content of one file from some position on: raw bytes, or decompressed ones for gzip. */
public interface ByteSource extends Closeable {

  /**
   * Reads up to {@code len} bytes at the current position.
   *
   * @return bytes read, or -1 when there are none now (a growing file may have more later)
   */
  int read(byte[] b, int off, int len) throws IOException;

  /** The position of the next byte in the file's content. */
  long position();

  /** True when more bytes may appear after -1 (a plain file that is appended to). */
  boolean canGrow();

  /** The content's size now, or -1 when unknown without reading it (gzip). */
  long size() throws IOException;
}
