package io.skippr.connect.source.lineprotocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random bytes and mutated valid lines: the parser never throws, rejects with a reason, and every
 * point it accepts survives a write-and-parse round trip unchanged.
 */
class LineProtocolFuzzTest {

  private static final long SEED = 0x5eed_1e55L;
  private static final int CASES = 300_000;
  private static final long BUDGET_NANOS = 20_000_000_000L;

  private static final String[] VALID = {
    "weather,location=us-midwest temperature=82 1465839830100400200",
    "cpu,host=a,region=eu\\ west usage=0.5,count=3i,flag=t,name=\"x\\\"y\" 1",
    "my\\ m\\,x,k\\=1=v\\ 1 f\\,k=\"a\\\\b\",u=18446744073709551615u -5",
    "m v=-1.234456e+78,w=1.,x=.5,y=1E-5,z=FALSE",
    "m,t=\uD83C\uDF6D v=\"Launch \uD83D\uDE80\"",
    "  m v=1i   9223372036854775806  ",
    "m v=1\r",
    "# comment",
  };
  private static final byte[] SPECIAL =
      " ,=\\\"#\r\t-.0123456789eEiutTfF_".getBytes(StandardCharsets.UTF_8);

  @Test
  void neverThrowsAndRoundTripsEveryAcceptedPoint() {
    SplittableRandom random = new SplittableRandom(SEED);
    LineProtocolParser parser = new LineProtocolParser(LineLimits.DEFAULT);
    long deadline = System.nanoTime() + BUDGET_NANOS;
    int cases = 0;
    int accepted = 0;
    int rejected = 0;
    while (cases < CASES && System.nanoTime() < deadline) {
      byte[] line = cases % 4 == 0 ? randomBytes(random) : mutate(random);
      LineResult result = parser.parseLine(line, 0, line.length, 1, Precision.NANOSECONDS, 9);
      cases++;
      if (result == null) {
        assertThat(isBlankOrComment(line)).as(() -> show(line)).isTrue();
      } else if (result instanceof Rejection r) {
        rejected++;
        if (r.reason().isBlank() || r.reason().startsWith("unparseable line")) {
          throw new AssertionError("bad rejection " + r.reason() + " for " + show(line));
        }
      } else {
        accepted++;
        assertRoundTrip(parser, (Point) result, line);
      }
    }
    System.out.printf("fuzz: %d cases, %d accepted, %d rejected%n", cases, accepted, rejected);
    assertThat(cases).isGreaterThan(10_000);
    assertThat(accepted).isGreaterThan(100);
    assertThat(rejected).isGreaterThan(100);
  }

  private static void assertRoundTrip(LineProtocolParser parser, Point point, byte[] line) {
    byte[] again = LineProtocolWriter.write(point).getBytes(StandardCharsets.UTF_8);
    LineResult reparsed = parser.parseLine(again, 0, again.length, 1, Precision.NANOSECONDS, 0);
    assertThat(reparsed).as(() -> show(line)).isInstanceOf(Point.class);
    Point p = (Point) reparsed;
    assertThat(p.measurement()).as(() -> show(line)).isEqualTo(point.measurement());
    assertThat(p.tags()).as(() -> show(line)).isEqualTo(point.tags());
    assertThat(p.timeNanos()).as(() -> show(line)).isEqualTo(point.timeNanos());
    assertThat(p.fields()).as(() -> show(line)).hasSameSizeAs(point.fields());
    for (int i = 0; i < p.fields().size(); i++) {
      Field a = p.fields().get(i);
      Field b = point.fields().get(i);
      assertThat(a.key()).isEqualTo(b.key());
      assertThat(a.type()).isEqualTo(b.type());
      assertThat(a.value()).as(() -> show(line)).isEqualTo(b.value());
    }
  }

  private static boolean isBlankOrComment(byte[] line) {
    int i = 0;
    while (i < line.length && (line[i] == ' ' || line[i] == '\t')) {
      i++;
    }
    return i == line.length || line[i] == '#' || (i == line.length - 1 && line[i] == '\r');
  }

  private static byte[] randomBytes(SplittableRandom random) {
    byte[] b = new byte[random.nextInt(0, 48)];
    for (int i = 0; i < b.length; i++) {
      b[i] =
          random.nextInt(3) == 0
              ? SPECIAL[random.nextInt(SPECIAL.length)]
              : (byte) random.nextInt(256);
      if (b[i] == '\n') {
        b[i] = ' ';
      }
    }
    return b;
  }

  private static byte[] mutate(SplittableRandom random) {
    byte[] b = VALID[random.nextInt(VALID.length)].getBytes(StandardCharsets.UTF_8);
    int edits = random.nextInt(1, 4);
    for (int e = 0; e < edits && b.length > 0; e++) {
      int at = random.nextInt(b.length);
      byte c = SPECIAL[random.nextInt(SPECIAL.length)];
      switch (random.nextInt(4)) {
        case 0 -> b[at] = c;
        case 1 -> b = splice(b, at, 0, c);
        case 2 -> b = splice(b, at, 1, (byte) 0);
        default -> b = java.util.Arrays.copyOf(b, at);
      }
    }
    return b;
  }

  private static byte[] splice(byte[] b, int at, int remove, byte insert) {
    byte[] out = new byte[b.length - remove + (remove == 0 ? 1 : 0)];
    System.arraycopy(b, 0, out, 0, at);
    if (remove == 0) {
      out[at] = insert;
      System.arraycopy(b, at, out, at + 1, b.length - at);
    } else {
      System.arraycopy(b, at + 1, out, at, b.length - at - 1);
    }
    return out;
  }

  private static String show(byte[] line) {
    StringBuilder sb = new StringBuilder("line bytes: ");
    for (byte x : line) {
      sb.append(String.format("%02x", x & 0xff));
    }
    return sb.append(" = ").append(new String(line, StandardCharsets.UTF_8)).toString();
  }
}
