package io.skippr.connect.lake.storage;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Counts and hashes what passes into an object being written; closing it leaves the object open.
 */
public final class HashingStream extends FilterOutputStream {
  private final MessageDigest digest;
  private long count;

  public HashingStream(OutputStream out, MessageDigest digest) {
    super(out);
    this.digest = digest;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    digest.update((byte) b);
    count++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    digest.update(b, off, len);
    count += len;
  }

  @Override
  public void close() throws IOException {
    flush();
  }

  /** The bytes written so far. */
  public long count() {
    return count;
  }

  /** The hex digest of what was written (call once, after the last write). */
  public String hex() {
    return HexFormat.of().formatHex(digest.digest());
  }
}
