package io.skippr.connect.source.lineprotocol;

/** The ten boolean spellings of the line protocol reference. */
final class BooleanSpelling {

  private static final byte[][] TRUE = {
    {'t'}, {'T'}, {'t', 'r', 'u', 'e'}, {'T', 'r', 'u', 'e'}, {'T', 'R', 'U', 'E'}
  };
  private static final byte[][] FALSE = {
    {'f'}, {'F'}, {'f', 'a', 'l', 's', 'e'}, {'F', 'a', 'l', 's', 'e'}, {'F', 'A', 'L', 'S', 'E'}
  };

  private BooleanSpelling() {}

  /** The value of {@code buf[start, end)}, or null when it is not one of the spellings. */
  static Boolean parse(byte[] buf, int start, int end) {
    if (matchesAny(TRUE, buf, start, end)) {
      return Boolean.TRUE;
    }
    return matchesAny(FALSE, buf, start, end) ? Boolean.FALSE : null;
  }

  private static boolean matchesAny(byte[][] spellings, byte[] buf, int start, int end) {
    for (byte[] spelling : spellings) {
      if (java.util.Arrays.equals(spelling, 0, spelling.length, buf, start, end)) {
        return true;
      }
    }
    return false;
  }
}
