package io.skippr.connect.lake.storage;

import io.skippr.connect.common.Sha256;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Makes partition values safe as path segments on local disk and in S3 keys, in a form Hive, Spark
 * and DuckDB decode ({@code %XX} escapes of UTF-8 bytes).
 *
 * <ul>
 *   <li>Every byte other than {@code A-Z a-z 0-9 _ - .} is percent-encoded (uppercase hex), so no
 *       value can contain {@code /}, {@code \}, {@code =}, {@code %}, NUL, control characters,
 *       spaces or non-ASCII text; a leading {@code .} is encoded too, so no value is {@code .},
 *       {@code ..} or a hidden name.
 *   <li>{@code null} becomes {@value #NULL_VALUE}, which Hive, Spark and DuckDB read back as NULL.
 *       The empty string becomes {@value #EMPTY_VALUE} (Spark refuses an empty {@code name=}
 *       segment, so there is no way to spell it that readers decode to ""). A value that equals one
 *       of these sentinels gets its first {@code _} encoded ({@code %5F_empty__}), so the sentinels
 *       stay distinct from real text.
 *   <li>A segment never exceeds {@value #MAX_SEGMENT_BYTES} bytes: a longer value keeps an encoded
 *       prefix followed by {@code ~} and 32 hex digits of the SHA-256 of the whole value. {@code ~}
 *       never appears in a shorter encoding, so distinct values stay distinct. Such a value decodes
 *       to its prefix plus the marker, not to the original.
 * </ul>
 *
 * The encoding is injective: distinct values give distinct encodings (an unpaired UTF-16 surrogate
 * is encoded as its own three bytes, WTF-8 style, instead of collapsing to {@code ?}).
 */
public final class PathEncoder {
  /** The encoded form of a null value: Hive's default partition name. */
  public static final String NULL_VALUE = "__HIVE_DEFAULT_PARTITION__";

  /** The encoded form of the empty string. */
  public static final String EMPTY_VALUE = "__empty__";

  /** The longest segment this encoder produces, a common file-system limit for a name. */
  public static final int MAX_SEGMENT_BYTES = 255;

  /** Separates the truncated prefix of a long value from its hash. */
  public static final char HASH_MARKER = '~';

  private static final int HASH_HEX_CHARS = 32;
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PathEncoder() {}

  /** A Hive-style {@code name=value} segment with both sides encoded, at most 255 bytes. */
  public static String segment(String name, String value) {
    String encodedName = encodeName(name);
    return encodedName + "=" + encode(value, MAX_SEGMENT_BYTES - encodedName.length() - 1);
  }

  /** The encoded name of a {@code name=value} segment, at most half a segment long. */
  public static String encodeName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a partition name must not be empty");
    }
    return encode(name, MAX_SEGMENT_BYTES / 2);
  }

  /** The encoded value, at most {@value #MAX_SEGMENT_BYTES} bytes. */
  public static String encode(String value) {
    return encode(value, MAX_SEGMENT_BYTES);
  }

  /** The encoded value, at most {@code maxBytes} bytes ({@code maxBytes} at least 64). */
  public static String encode(String value, int maxBytes) {
    if (maxBytes < 2 * HASH_HEX_CHARS) {
      throw new IllegalArgumentException("maxBytes must be at least " + 2 * HASH_HEX_CHARS);
    }
    if (value == null) {
      return NULL_VALUE;
    }
    if (value.isEmpty()) {
      return EMPTY_VALUE;
    }
    if (value.equals(NULL_VALUE) || value.equals(EMPTY_VALUE)) {
      return "%5F" + value.substring(1);
    }
    byte[] bytes = utf8(value);
    StringBuilder out = new StringBuilder(bytes.length + 16);
    for (int i = 0; i < bytes.length; i++) {
      byte b = bytes[i];
      if (isSafe(b) && !(i == 0 && b == '.')) {
        out.append((char) b);
      } else {
        out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
      }
    }
    return out.length() <= maxBytes ? out.toString() : truncate(out, bytes, maxBytes);
  }

  /**
   * Decodes an encoded value: {@value #NULL_VALUE} to null, {@value #EMPTY_VALUE} to "", {@code
   * %XX} escapes to their UTF-8 text. A truncated long value decodes to its prefix and hash marker.
   *
   * @throws IllegalArgumentException on a malformed escape
   */
  public static String decode(String encoded) {
    if (NULL_VALUE.equals(encoded)) {
      return null;
    }
    if (EMPTY_VALUE.equals(encoded)) {
      return "";
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c == '%') {
        if (i + 2 >= encoded.length()) {
          throw new IllegalArgumentException("incomplete escape at " + i + " in " + encoded);
        }
        bytes.write(HexFormat.fromHexDigits(encoded, i + 1, i + 3));
        i += 2;
      } else {
        bytes.write(c);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /**
   * True when the text is usable as one path segment: non-empty, at most {@value
   * #MAX_SEGMENT_BYTES} bytes, not {@code .} or {@code ..}, without {@code /}, {@code \}, NUL or
   * control characters.
   */
  public static boolean isSafeSegment(String segment) {
    if (segment == null
        || segment.isEmpty()
        || segment.equals(".")
        || segment.equals("..")
        || segment.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
      return false;
    }
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static String truncate(StringBuilder encoded, byte[] original, int maxBytes) {
    int keep = maxBytes - 1 - HASH_HEX_CHARS;
    // never cut an escape in half
    if (keep >= 1 && encoded.charAt(keep - 1) == '%') {
      keep -= 1;
    } else if (keep >= 2 && encoded.charAt(keep - 2) == '%') {
      keep -= 2;
    }
    return encoded.substring(0, keep) + HASH_MARKER + hashHex(original);
  }

  private static String hashHex(byte[] bytes) {
    return Sha256.hex(bytes).substring(0, HASH_HEX_CHARS);
  }

  /**
   * UTF-8 bytes, with an unpaired surrogate encoded as its own three bytes (WTF-8) rather than
   * replaced by {@code ?}, so that distinct strings never share an encoding.
   */
  static byte[] utf8(String value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length() + 8);
    value
        .codePoints()
        .forEach(
            cp -> {
              if (cp < 0x80) {
                out.write(cp);
              } else if (cp < 0x800) {
                out.write(0xC0 | (cp >> 6));
                out.write(0x80 | (cp & 0x3F));
              } else if (cp < 0x10000) {
                out.write(0xE0 | (cp >> 12));
                out.write(0x80 | ((cp >> 6) & 0x3F));
                out.write(0x80 | (cp & 0x3F));
              } else {
                out.write(0xF0 | (cp >> 18));
                out.write(0x80 | ((cp >> 12) & 0x3F));
                out.write(0x80 | ((cp >> 6) & 0x3F));
                out.write(0x80 | (cp & 0x3F));
              }
            });
    return out.toByteArray();
  }

  private static boolean isSafe(byte b) {
    return (b >= 'a' && b <= 'z')
        || (b >= 'A' && b <= 'Z')
        || (b >= '0' && b <= '9')
        || b == '.'
        || b == '_'
        || b == '-';
  }
}
