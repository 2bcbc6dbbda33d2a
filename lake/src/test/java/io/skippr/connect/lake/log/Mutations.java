package io.skippr.connect.lake.log;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Damage done to a stored document, as storage, a careless hand or a copy does it: a byte changed
 * (a bit flipped, a digit or a letter changed), bytes deleted, inserted or repeated, the end cut
 * off.
 */
record Mutations(List<Mutation> steps) {

  /** One change at a place given as a fraction of the document's length. */
  record Mutation(Kind kind, double at, int length, byte value) {
    byte[] apply(byte[] bytes) {
      int n = bytes.length;
      int i = Math.min(n - 1, (int) (at * n));
      if (n == 0 || i < 0) {
        return kind == Kind.INSERT ? new byte[] {value} : bytes;
      }
      int end = Math.min(n, i + length);
      ByteArrayOutputStream out = new ByteArrayOutputStream(n + length);
      switch (kind) {
        case FLIP_BIT -> {
          byte[] copy = bytes.clone();
          copy[i] ^= (byte) (1 << (value & 7));
          return copy;
        }
        case REPLACE -> {
          byte[] copy = bytes.clone();
          copy[i] = value;
          return copy;
        }
        case NEXT_CHAR -> {
          byte[] copy = bytes.clone();
          copy[i] = nextChar(copy[i]);
          return copy;
        }
        case TRUNCATE -> {
          return Arrays.copyOf(bytes, i);
        }
        case DELETE -> {
          out.write(bytes, 0, i);
          out.write(bytes, end, n - end);
        }
        case INSERT -> {
          out.write(bytes, 0, i);
          for (int k = 0; k < length; k++) {
            out.write(value + k);
          }
          out.write(bytes, i, n - i);
        }
        case REPEAT -> {
          out.write(bytes, 0, end);
          out.write(bytes, i, n - i);
        }
        default -> throw new IllegalStateException(kind.name());
      }
      return out.toByteArray();
    }

    /** A digit becomes another digit, a letter another letter: a hand edit that stays valid. */
    private static byte nextChar(byte b) {
      if (b >= '0' && b <= '9') {
        return (byte) (b == '9' ? '0' : b + 1);
      }
      if (b >= 'a' && b <= 'z') {
        return (byte) (b == 'z' ? 'a' : b + 1);
      }
      return (byte) (b + 1);
    }
  }

  /** The kinds of damage. */
  enum Kind {
    FLIP_BIT,
    REPLACE,
    NEXT_CHAR,
    TRUNCATE,
    DELETE,
    INSERT,
    REPEAT
  }

  byte[] apply(byte[] bytes) {
    byte[] out = bytes;
    for (Mutation step : steps) {
      out = step.apply(out);
    }
    return out;
  }

  /** One to three changes. */
  static Arbitrary<Mutations> any() {
    Arbitrary<Mutation> one =
        Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.doubles().between(0, 1),
                Arbitraries.integers().between(1, 40),
                Arbitraries.bytes())
            .as(Mutation::new);
    return one.list().ofMinSize(1).ofMaxSize(3).map(Mutations::new);
  }
}
