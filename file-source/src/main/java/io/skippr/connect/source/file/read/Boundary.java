package io.skippr.connect.source.file.read;

/** Finds where a record ends: the LF that terminates it. Keeps its state across buffer refills. */
public interface Boundary {

  /**
   * Scans {@code buf[from, to)} for the terminating LF of the current record.
   *
   * @return its index, or -1 when the record goes on past {@code to}
   */
  int find(byte[] buf, int from, int to);

  /** LFs inside the current record so far (a CSV quoted field may hold newlines). */
  int newlinesInside();

  /** Starts a new record. */
  void reset();

  /** Every line ends at its LF. */
  static Boundary lines() {
    return new Boundary() {
      @Override
      public int find(byte[] buf, int from, int to) {
        for (int i = from; i < to; i++) {
          if (buf[i] == '\n') {
            return i;
          }
        }
        return -1;
      }

      @Override
      public int newlinesInside() {
        return 0;
      }

      @Override
      public void reset() {}
    };
  }
}
