package io.skippr.connect.source.file.read;

/**
 * RFC 4180 record ends: an LF outside quotes. A quote opens a quoted field only at the start of a
 * field (elsewhere it is an ordinary character, as the CSV parser reads it); inside, a doubled
 * quote is a literal quote and LFs belong to the field.
 */
public final class CsvBoundary implements Boundary {

  private enum State {
    FIELD_START,
    UNQUOTED,
    QUOTED,
    QUOTE_IN_QUOTED
  }

  private final byte delimiter;
  private final byte quote;
  private State state = State.FIELD_START;
  private int newlines;

  public CsvBoundary(char delimiter, char quote) {
    if (delimiter > 0x7f || quote > 0x7f) {
      throw new IllegalArgumentException("CSV delimiter and quote must be ASCII characters");
    }
    this.delimiter = (byte) delimiter;
    this.quote = (byte) quote;
  }

  @Override
  public int find(byte[] buf, int from, int to) {
    State s = state;
    for (int i = from; i < to; i++) {
      byte b = buf[i];
      switch (s) {
        case QUOTED -> {
          if (b == quote) {
            s = State.QUOTE_IN_QUOTED;
          } else if (b == '\n') {
            newlines++;
          }
        }
        case QUOTE_IN_QUOTED -> s = b == quote ? State.QUOTED : outside(b);
        case FIELD_START -> s = b == quote ? State.QUOTED : outside(b);
        default -> s = outside(b);
      }
      if (s == null) {
        state = State.FIELD_START;
        return i;
      }
    }
    state = s;
    return -1;
  }

  /** The state after byte {@code b} outside quotes; null at the record's LF. */
  private State outside(byte b) {
    if (b == '\n') {
      return null;
    }
    return b == delimiter ? State.FIELD_START : State.UNQUOTED;
  }

  @Override
  public int newlinesInside() {
    return newlines;
  }

  @Override
  public void reset() {
    state = State.FIELD_START;
    newlines = 0;
  }
}
