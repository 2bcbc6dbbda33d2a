package io.skippr.connect.source.file.read;

import java.io.IOException;
import java.util.Arrays;

/**
 * Cuts a file's content into records with bounded memory, tracking each record's byte positions and
 * line numbers. A record longer than the limit is never held whole: its first bytes are kept as a
 * preview, the rest is discarded up to the first LF after its start, and it comes back as {@link
 * Frame.Kind#OVERLONG} so the reader can reject it and go on.
 *
 * <p>At the current end of a file that may grow, an unterminated last record stays buffered until
 * its LF arrives; at the end of a finished file it is returned as it is.
 */
public final class RecordFramer {

  private static final int MIN_BUFFER = 64 * 1024;

  /** Bytes of an over-long record kept for its rejection. */
  public static final int PREVIEW_BYTES = 4096;

  private final ByteSource source;
  private final Boundary boundary;
  private final int maxBytes;
  private byte[] buf;
  private long basePosition;
  private int head;
  private int fill;
  private int scanned;
  private long nextLine;
  private boolean atEnd;
  private Skipping skipping;

  /** An over-long record being discarded up to its LF; its first bytes are kept as a preview. */
  private static final class Skipping {
    private final byte[] preview = new byte[PREVIEW_BYTES];
    private final long startPosition;
    private final long line;
    private int kept;
    private long seen;

    Skipping(long startPosition, long line) {
      this.startPosition = startPosition;
      this.line = line;
    }

    /** Keeps what fits of {@code b[from, to)}, the record's next bytes. */
    void keep(byte[] b, int from, int to) {
      int n = Math.min(to - from, PREVIEW_BYTES - kept);
      System.arraycopy(b, from, preview, kept, n);
      kept += n;
      seen += to - from;
    }

    /** The first bytes of the record, without the CR of its line end when they reach it. */
    byte[] preview() {
      int n = seen == kept && kept > 0 && preview[kept - 1] == '\r' ? kept - 1 : kept;
      return Arrays.copyOf(preview, n);
    }
  }

  /**
   * @param source the content, positioned at the start of a record
   * @param maxBytes longest record, without its CR LF
   * @param line 1-based number of the line at the source's position
   */
  public RecordFramer(ByteSource source, Boundary boundary, int maxBytes, long line) {
    this.source = source;
    this.boundary = boundary;
    this.maxBytes = maxBytes;
    this.buf = new byte[MIN_BUFFER];
    this.basePosition = source.position();
    this.nextLine = line;
  }

  /**
   * The next record, or null when there is none now.
   *
   * @param finished true when the content cannot grow any more: an unterminated last record is
   *     returned instead of waiting for its LF
   */
  public Frame next(boolean finished) throws IOException {
    while (true) {
      if (skipping != null) {
        return skip(finished);
      }
      // The end is looked for within the limit only, so a record's verdict never depends on
      // how many of its bytes one read brought.
      int window = (int) Math.min(fill, head + (long) maxBytes + 2);
      int lf = boundary.find(buf, scanned, window);
      if (lf >= 0) {
        return record(lf, lf + 1, 1);
      }
      scanned = window;
      if (window - head >= maxBytes + 2) {
        startSkipping();
        continue;
      }
      if (atEnd || !readMore()) {
        return finished && head < fill ? record(fill, fill, 0) : null;
      }
    }
  }

  /** Position after the last byte handed out: where the framer would resume. */
  public long position() {
    return basePosition + head;
  }

  /** The number of the next record's first line. */
  public long nextLine() {
    return nextLine;
  }

  private Frame record(int contentEnd, int next, int terminators) {
    int end = contentEnd > head && buf[contentEnd - 1] == '\r' ? contentEnd - 1 : contentEnd;
    long line = nextLine;
    int lines = boundary.newlinesInside() + terminators;
    if (terminators == 0 && next > head && buf[next - 1] != '\n') {
      lines++; // the unterminated last line (unless the record ends with a quoted LF)
    }
    long start = basePosition + head;
    nextLine += lines;
    boundary.reset();
    int from = head;
    head = next;
    scanned = next;
    if (end - from > maxBytes) {
      byte[] preview = Arrays.copyOfRange(buf, from, from + Math.min(PREVIEW_BYTES, end - from));
      return new Frame(
          Frame.Kind.OVERLONG, preview, 0, preview.length, start, basePosition + next, line, lines);
    }
    return new Frame(Frame.Kind.RECORD, buf, from, end, start, basePosition + next, line, lines);
  }

  /**
   * The record is over the limit: keep a preview, then go on after the first LF from its start. A
   * line simply ends there; a CSV record whose quote never closes loses only its first line.
   */
  private void startSkipping() {
    skipping = new Skipping(basePosition + head, nextLine);
    boundary.reset();
    scanned = head;
  }

  /** Discards bytes up to the next LF; the over-long record once it is found, else null. */
  private Frame skip(boolean finished) throws IOException {
    while (true) {
      for (int i = scanned; i < fill; i++) {
        if (buf[i] == '\n') {
          skipping.keep(buf, scanned, i);
          return skipped(i + 1, 1);
        }
      }
      skipping.keep(buf, scanned, fill);
      basePosition += fill;
      head = 0;
      fill = 0;
      scanned = 0;
      if (atEnd || !readMore()) {
        return finished ? skipped(0, 1) : null;
      }
    }
  }

  private Frame skipped(int next, int lines) {
    Skipping s = skipping;
    skipping = null;
    nextLine += lines;
    head = next;
    scanned = next;
    byte[] preview = s.preview();
    return new Frame(
        Frame.Kind.OVERLONG,
        preview,
        0,
        preview.length,
        s.startPosition,
        basePosition + next,
        s.line,
        (int) Math.min(Integer.MAX_VALUE, nextLine - s.line));
  }

  /** Reads more bytes after {@code fill}; false when the source has none now. */
  private boolean readMore() throws IOException {
    if (head > 0) {
      System.arraycopy(buf, head, buf, 0, fill - head);
      basePosition += head;
      fill -= head;
      scanned -= head;
      head = 0;
    }
    if (fill == buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length + 1, Math.min(buf.length * 2, maxBytes + 2)));
    }
    int n = source.read(buf, fill, buf.length - fill);
    if (n < 0) {
      atEnd = !source.canGrow();
      return false;
    }
    fill += n;
    return true;
  }

  /** True when bytes of an unfinished record are held (waiting for their LF). */
  public boolean holdsPartialRecord() {
    return skipping != null || fill > head;
  }

  /** Forgets that the source ended, so bytes appended since are read. */
  public void resume() {
    atEnd = false;
  }
}
