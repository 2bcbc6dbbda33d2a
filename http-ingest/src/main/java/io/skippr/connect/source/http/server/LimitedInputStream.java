package io.skippr.connect.source.http.server;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts bytes and fails with {@link RequestTooLarge} as soon as more than the limit arrive. */
public final class LimitedInputStream extends FilterInputStream {

  private final long limit;
  private final String what;
  private long count;

  public LimitedInputStream(InputStream in, long limit, String what) {
    super(in);
    this.limit = limit;
    this.what = what;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      add(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      add(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = super.skip(n);
    add(skipped);
    return skipped;
  }

  /** Bytes read so far. */
  public long count() {
    return count;
  }

  private void add(long n) throws RequestTooLarge {
    count += n;
    if (count > limit) {
      throw new RequestTooLarge(what + " larger than " + limit + " bytes");
    }
  }
}
