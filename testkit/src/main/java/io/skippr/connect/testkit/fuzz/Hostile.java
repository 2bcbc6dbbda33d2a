package io.skippr.connect.testkit.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Hostile input for the fuzz tests: soups of the bytes parsers trip over (quotes, escapes, line
 * ends of every kind, NUL, byte order marks, invalid and overlong UTF-8, huge numbers, deep
 * nesting), and seeded mutations of valid input (bytes flipped, inserted, deleted, duplicated,
 * cut). Both shrink: a failure is reported with a small input and the seed that made it.
 */
public final class Hostile {

  /** The pieces soups are made of. */
  static final List<byte[]> PIECES =
      List.of(
          bytes("{"),
          bytes("}"),
          bytes("["),
          bytes("]"),
          bytes("\""),
          bytes("\"\""),
          bytes("'"),
          bytes("\\"),
          bytes("\\u0000"),
          bytes("\\ud800"),
          bytes(","),
          bytes(";"),
          bytes(":"),
          bytes("="),
          bytes("\t"),
          bytes(" "),
          bytes("\n"),
          bytes("\r"),
          bytes("\r\n"),
          bytes("\n\r"),
          new byte[] {0},
          new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
          new byte[] {(byte) 0xFF, (byte) 0xFE},
          new byte[] {(byte) 0xFE, (byte) 0xFF},
          new byte[] {(byte) 0xC3, (byte) 0x28},
          new byte[] {(byte) 0xC0, (byte) 0xAF},
          new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
          new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
          new byte[] {(byte) 0xFF},
          new byte[] {(byte) 0x80},
          bytes("\u00e9"),
          bytes("\uD83D\uDE00"),
          bytes("a"),
          bytes("id"),
          bytes("0"),
          bytes("-1"),
          bytes("1.5"),
          bytes("1e999"),
          bytes("-1e-999"),
          bytes("123456789012345678901234567890"),
          bytes("9223372036854775808"),
          bytes("true"),
          bytes("null"),
          bytes("NaN"),
          bytes("#"),
          bytes("\"a\":"),
          bytes("{\"a\":"),
          bytes("<a>"),
          bytes("/"),
          bytes("?"),
          bytes("%"),
          bytes("%zz"),
          bytes("http://"));

  private Hostile() {}

  /** Up to {@code maxPieces} pieces in any order. */
  public static Arbitrary<byte[]> soup(int maxPieces) {
    return Arbitraries.of(PIECES).list().ofMaxSize(maxPieces).map(Hostile::concat);
  }

  /** {@code valid} input after one to four seeded mutations. */
  public static Arbitrary<byte[]> mutated(Arbitrary<byte[]> valid) {
    return Combinators.combine(valid, Arbitraries.longs())
        .as((bytes, seed) -> mutate(bytes, new Random(seed)));
  }

  /** Text as UTF-8. */
  public static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** {@code depth} nested openers (and their closers when {@code closed}). */
  public static byte[] nested(String open, String close, int depth, boolean closed) {
    return bytes(open.repeat(depth) + (closed ? close.repeat(depth) : ""));
  }

  /** The bytes with every LF made a space: a framed line never holds its LF. */
  public static byte[] oneLine(byte[] bytes) {
    byte[] out = bytes.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i] == '\n') {
        out[i] = ' ';
      }
    }
    return out;
  }

  /** The parts one after the other. */
  public static byte[] concat(List<byte[]> parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    parts.forEach(out::writeBytes);
    return out.toByteArray();
  }

  /** One to four mutations of {@code in}, chosen by {@code random}. */
  public static byte[] mutate(byte[] in, Random random) {
    byte[] out = in;
    int n = 1 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      out = mutateOnce(out, random);
    }
    return out;
  }

  private static byte[] mutateOnce(byte[] in, Random random) {
    int at = in.length == 0 ? 0 : random.nextInt(in.length + 1);
    int len = in.length - at == 0 ? 0 : 1 + random.nextInt(Math.min(16, in.length - at));
    return switch (random.nextInt(6)) {
      case 0 -> flip(in, at, random);
      case 1 -> splice(in, at, 0, PIECES.get(random.nextInt(PIECES.size())));
      case 2 -> splice(in, at, len, new byte[0]);
      case 3 -> splice(in, at, 0, Arrays.copyOfRange(in, at, at + len));
      case 4 -> Arrays.copyOf(in, at);
      default -> splice(in, at, len, PIECES.get(random.nextInt(PIECES.size())));
    };
  }

  private static byte[] flip(byte[] in, int at, Random random) {
    if (at >= in.length) {
      return in;
    }
    byte[] out = in.clone();
    out[at] = (byte) random.nextInt(256);
    return out;
  }

  private static byte[] splice(byte[] in, int at, int remove, byte[] insert) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + insert.length);
    out.write(in, 0, at);
    out.writeBytes(insert);
    out.write(in, at + remove, in.length - at - remove);
    return out.toByteArray();
  }
}
