package io.skippr.connect.testkit.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Seeded byte-level mutations of valid inputs, for fuzz tests: each edit overwrites, inserts or
 * deletes a byte, inserts a token that parsers find hard (escapes, quotes, huge numbers, invalid
 * UTF-8, lone surrogate escapes, deep nesting), duplicates or drops a range, or cuts the input
 * short. The same seed always gives the same mutations.
 */
public final class Mutations {

  /** Single bytes with a meaning in line protocol, JSON or HTTP bodies. */
  private static final byte[] SPECIAL =
      " ,=\\\"'#\r\t\n{}[]:-+.0123456789eEiutTfFnx_%\u0000".getBytes(StandardCharsets.ISO_8859_1);

  /** Multi-byte tokens. */
  private static final List<byte[]> TOKENS =
      List.of(
          utf8("\\"),
          utf8("\\\\"),
          utf8("\\\""),
          utf8("\\u0000"),
          utf8("\\uD800"),
          utf8("\\uDC00\\uD800"),
          utf8("\\uD83D\\uDE80"),
          utf8("\u00e9"),
          utf8("\uD83D\uDE80"),
          new byte[] {(byte) 0xC3, 0x28},
          new byte[] {(byte) 0xFF},
          new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
          new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
          utf8("9223372036854775808"),
          utf8("-9223372036854775809"),
          utf8("18446744073709551616"),
          utf8("123456789012345678901234567890123456789"),
          utf8("1e999"),
          utf8("-1e-999"),
          utf8("NaN"),
          utf8("Infinity"),
          utf8("0x1F"),
          utf8("true"),
          utf8("null"),
          utf8("\"k\":1,\"k\":\"s\""),
          utf8("{\"a\":{\"b\":[1,{\"c\":null}]}}"),
          utf8("[".repeat(600)),
          utf8("{\"a\":".repeat(300)),
          utf8("time"),
          utf8("time_ns"),
          utf8("_x"),
          utf8("\r\n"),
          utf8("# "));

  private Mutations() {}

  /** One to {@code maxEdits} edits of {@code input} (a copy; the input is not changed). */
  public static byte[] mutate(Random random, byte[] input, int maxEdits) {
    byte[] b = input;
    int edits = 1 + random.nextInt(Math.max(1, maxEdits));
    for (int e = 0; e < edits; e++) {
      b = edit(random, b);
    }
    return b;
  }

  /** Random bytes, often from {@link #SPECIAL}, up to {@code maxLength} long. */
  public static byte[] randomBytes(Random random, int maxLength) {
    byte[] b = new byte[random.nextInt(maxLength + 1)];
    for (int i = 0; i < b.length; i++) {
      b[i] =
          random.nextInt(3) == 0
              ? SPECIAL[random.nextInt(SPECIAL.length)]
              : (byte) random.nextInt();
    }
    return b;
  }

  private static byte[] edit(Random random, byte[] b) {
    int at = b.length == 0 ? 0 : random.nextInt(b.length + 1);
    return switch (random.nextInt(8)) {
      case 0 -> overwrite(b, at, SPECIAL[random.nextInt(SPECIAL.length)]);
      case 1 -> insert(b, at, new byte[] {SPECIAL[random.nextInt(SPECIAL.length)]});
      case 2 -> insert(b, at, TOKENS.get(random.nextInt(TOKENS.size())));
      case 3 -> delete(b, at, 1 + random.nextInt(4));
      case 4 -> duplicate(b, at, 1 + random.nextInt(16));
      case 5 -> Arrays.copyOf(b, at);
      case 6 -> overwrite(b, at, (byte) random.nextInt());
      default -> insert(b, at, new byte[] {(byte) (0x80 + random.nextInt(0x80))});
    };
  }

  private static byte[] overwrite(byte[] b, int at, byte value) {
    if (at >= b.length) {
      return insert(b, at, new byte[] {value});
    }
    byte[] out = b.clone();
    out[at] = value;
    return out;
  }

  private static byte[] insert(byte[] b, int at, byte[] token) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + token.length);
    out.write(b, 0, at);
    out.write(token, 0, token.length);
    out.write(b, at, b.length - at);
    return out.toByteArray();
  }

  private static byte[] delete(byte[] b, int at, int count) {
    int end = Math.min(b.length, at + count);
    byte[] out = new byte[b.length - (end - at)];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(b, end, out, at, b.length - end);
    return out;
  }

  private static byte[] duplicate(byte[] b, int at, int count) {
    int end = Math.min(b.length, at + count);
    return insert(b, end, Arrays.copyOfRange(b, at, end));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
