package io.skippr.connect.source.file.format;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 decoding of a record, and where it stops being UTF-8 when it does. */
final class Utf8Text {

  private Utf8Text() {}

  /** The record's text, or null when it is not UTF-8. */
  static CharBuffer decode(byte[] b, int start, int length) {
    try {
      return decoder().decode(ByteBuffer.wrap(b, start, length));
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Why the record is not UTF-8: the first byte that is not. */
  static String problem(byte[] b, int start, int length) {
    ByteBuffer in = ByteBuffer.wrap(b, start, length);
    CoderResult result = decoder().decode(in, CharBuffer.allocate(length), true);
    if (!result.isError()) {
      return "invalid UTF-8";
    }
    int at = in.position();
    return String.format(
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

  private static CharsetDecoder decoder() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }
}
