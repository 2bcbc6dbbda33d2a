package io.skippr.connect.source.file.format;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 (RFC 3629) for the records of a file: where a record stops being UTF-8, and its text
 * when Jackson would guess another encoding for it. Jackson checks less: it reads overlong forms
 * ({@code C0 80} as NUL), code points beyond U+10FFFF and, in CSV, encoded surrogates.
 */
final class Utf8Text {

  private Utf8Text() {}

  /** The index of the first byte of {@code b[start, start+length)} that is not UTF-8, or -1. */
  static int firstInvalid(byte[] b, int start, int length) {
    int end = start + length;
    int i = start;
    while (i < end) {
      if (b[i] >= 0) {
        i++;
      } else {
        int n = sequence(b, i, end);
        if (n == 0) {
          return i;
        }
        i += n;
      }
    }
    return -1;
  }

  /** The length of the well-formed sequence at {@code i}, or 0 (the table of RFC 3629). */
  private static int sequence(byte[] b, int i, int end) {
    int lead = b[i] & 0xff;
    int n = length(lead);
    if (n == 0 || i + n > end || !inRange(b[i + 1] & 0xff, lead)) {
      return 0;
    }
    for (int k = 2; k < n; k++) {
      if ((b[i + k] & 0xc0) != 0x80) {
        return 0;
      }
    }
    return n;
  }

  /** Bytes in the sequence a lead byte starts; 0 for a byte that starts none. */
  private static int length(int lead) {
    if (lead >= 0xc2 && lead <= 0xdf) {
      return 2;
    }
    if (lead >= 0xe0 && lead <= 0xef) {
      return 3;
    }
    return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  }

  /** Whether the second byte fits its lead: no overlong forms, surrogates or beyond U+10FFFF. */
  private static boolean inRange(int second, int lead) {
    int low = lead == 0xe0 ? 0xa0 : lead == 0xf0 ? 0x90 : 0x80;
    int high = lead == 0xed ? 0x9f : lead == 0xf4 ? 0x8f : 0xbf;
    return second >= low && second <= high;
  }

  /** Why the record is not UTF-8: the first byte that is not, counted within the record. */
  static String problem(byte[] b, int start, int length) {
    int at = firstInvalid(b, start, length);
    return at < 0
        ? "invalid UTF-8"
        : String.format(
            "invalid UTF-8 at byte %d of the record (0x%02x)", at - start, b[at] & 0xff);
  }

  /**
   * Whether Jackson would take the record for UTF-16 or UTF-32 (it guesses each input's encoding
   * from a byte order mark or a NUL among its first bytes): such a record is decoded here instead.
   */
  static boolean mayLookLikeUtf16(byte[] b, int start, int length) {
    if (length < 2) {
      return false;
    }
    int b0 = b[start] & 0xff;
    int b1 = b[start + 1] & 0xff;
    return b0 == 0 || b1 == 0 || b0 == 0xfe || b0 == 0xff;
  }

  /** The text of a record that is UTF-8. */
  static CharBuffer decode(byte[] b, int start, int length) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b, start, length));
    } catch (CharacterCodingException e) {
      throw new IllegalStateException("checked as UTF-8 first", e);
    }
  }
}
