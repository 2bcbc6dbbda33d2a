package io.skippr.connect.source.file.read;

/**
 * One record as the framer found it. The bytes are valid until the next call of {@link
 * RecordFramer#next()}.
 *
 * @param kind a whole record, or one longer than the limit (skipped; only a preview is kept)
 * @param buf the buffer holding the record (for an over-long record: its preview)
 * @param start first byte of the record in {@code buf}
 * @param end end of the record in {@code buf}, without its CR LF
 * @param startPosition position of the record's first byte in the file's content
 * @param endPosition position after the record and its line break: where the next one starts
 * @param line 1-based number of the record's first line
 * @param lines how many lines the record spans (its line break counted)
 */
public record Frame(
    Kind kind,
    byte[] buf,
    int start,
    int end,
    long startPosition,
    long endPosition,
    long line,
    int lines) {

  /** What the framer found. */
  public enum Kind {
    RECORD,
    OVERLONG
  }

  public int length() {
    return end - start;
  }
}
