package io.skippr.connect.source.lineprotocol;

/** Strict UTF-8 validation without allocation (no overlong forms, surrogates or > U+10FFFF). */
public final class Utf8 {

  private Utf8() {}

  public static boolean isValid(byte[] b, int start, int end) {
    return firstInvalid(b, start, end) < 0;
  }

  /** The index of the first byte that is not part of a valid sequence, or -1. */
  public static int firstInvalid(byte[] b, int start, int end) {
    int i = start;
    while (i < end) {
      int c = b[i] & 0xff;
      if (c < 0x80) {
        i++;
        continue;
      }
      int len = sequenceLength(c);
      if (len == 0 || i + len > end || !validSequence(b, i, len)) {
        return i;
      }
      i += len;
    }
    return -1;
  }

  /** True when the text has no unpaired surrogate, so UTF-8 can hold it. */
  public static boolean isWellFormed(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /** Bytes in the sequence a lead byte starts; 0 for a byte that cannot lead. */
  private static int sequenceLength(int lead) {
    if (lead >= 0xc2 && lead <= 0xdf) {
      return 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      return 3;
    }
    return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  }

  private static boolean validSequence(byte[] b, int i, int len) {
    int cp = (b[i] & 0xff) & (0xff >> (len + 1));
    for (int k = 1; k < len; k++) {
      int cc = b[i + k] & 0xff;
      if ((cc & 0xc0) != 0x80) {
        return false;
      }
      cp = (cp << 6) | (cc & 0x3f);
    }
    int min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    return cp >= min && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
  }
}
