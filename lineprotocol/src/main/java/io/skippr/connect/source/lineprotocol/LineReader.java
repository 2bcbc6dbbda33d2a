package io.skippr.connect.source.lineprotocol;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a stream into LF-terminated lines with bounded memory. A line longer than the limit is
 * returned cut to {@code maxLineBytes + 1} bytes (so the parser rejects it) and the rest of it is
 * skipped without being buffered.
 */
public final class LineReader {

  private final InputStream in;
  private final int maxLineBytes;
  private byte[] buf = new byte[64 * 1024];
  private int head;
  private int fill;
  private boolean eof;
  private int lineStart;
  private int lineEnd;
  private int lineNumber;
  private byte[] cut;

  public LineReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** Advances to the next line; false at the end of the stream. */
  public boolean next() throws IOException {
    int scanFrom = head;
    while (true) {
      int nl = indexOfNewline(scanFrom);
      if (nl >= 0) {
        // Cut here too, so a line reads the same however its bytes arrived.
        return emit(Math.min(nl, head + maxLineBytes + 1), nl + 1);
      }
      scanFrom = fill;
      if (fill - head > maxLineBytes) {
        emit(head + maxLineBytes + 1, head + maxLineBytes + 1);
        skipRestOfLine();
        return true;
      }
      if (eof) {
        return head < fill && emit(fill, fill);
      }
      scanFrom -= head;
      readMore();
      scanFrom += head;
    }
  }

  /** The buffer holding the current line. */
  public byte[] buffer() {
    return cut != null ? cut : buf;
  }

  public int start() {
    return lineStart;
  }

  public int end() {
    return lineEnd;
  }

  /** The 1-based number of the current line. */
  public int lineNumber() {
    return lineNumber;
  }

  private boolean emit(int end, int nextHead) {
    cut = null;
    lineStart = head;
    lineEnd = end;
    head = nextHead;
    lineNumber++;
    return true;
  }

  private int indexOfNewline(int from) {
    for (int i = from; i < fill; i++) {
      if (buf[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void readMore() throws IOException {
    if (head > 0) {
      System.arraycopy(buf, head, buf, 0, fill - head);
      fill -= head;
      head = 0;
    }
    if (fill == buf.length) {
      buf =
          Arrays.copyOf(buf, Math.max(buf.length + 1, Math.min(buf.length * 2, maxLineBytes + 2)));
    }
    int n = in.read(buf, fill, buf.length - fill);
    if (n < 0) {
      eof = true;
    } else {
      fill += n;
    }
  }

  /** Drops bytes up to and including the next LF; the cut line is kept aside in {@link #cut}. */
  private void skipRestOfLine() throws IOException {
    cut = Arrays.copyOfRange(buf, lineStart, lineEnd);
    lineStart = 0;
    lineEnd = cut.length;
    head = 0;
    fill = 0;
    while (!eof) {
      int n = in.read(buf, 0, buf.length);
      if (n < 0) {
        eof = true;
        return;
      }
      for (int i = 0; i < n; i++) {
        if (buf[i] == '\n') {
          System.arraycopy(buf, i + 1, buf, 0, n - i - 1);
          fill = n - i - 1;
          return;
        }
      }
    }
  }
}
