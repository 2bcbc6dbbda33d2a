package io.skippr.connect.source.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.http.config.LimitsConfig;
import io.skippr.connect.source.lineprotocol.LineLimits;
import io.skippr.connect.testkit.fuzz.Gzip;
import io.skippr.connect.testkit.fuzz.Mutations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Request bodies with Content-Encoding gzip (fuzz.tries cases per property): a valid body (also
 * several gzip members) decodes to what was compressed; a truncated, corrupted or mutated one
 * either decodes to exactly the original or fails with an IOException (answered 400), never another
 * exception; a bomb stops with RequestTooLarge (413) as soon as the decompressed limit is passed,
 * having read no more than the limit.
 */
class RequestBodyFuzzTest {

  private static final long MAX_BYTES = 64 * 1024;
  private static final long MAX_DECOMPRESSED = 4 * 1024;
  private static final LimitsConfig.Values LIMITS =
      new LimitsConfig.Values(
          MAX_BYTES, MAX_DECOMPRESSED, 1000, LineLimits.DEFAULT, 1000, 1_000_000, 65536);

  @Property
  void validGzipDecodesToTheOriginal(@ForAll("plain") byte[] plain) throws IOException {
    byte[] encoded = gzip(plain, new Random(plain.length)).bytes();
    assertThat(decode(encoded)).isEqualTo(plain);
  }

  @Property
  void damagedGzipDecodesToTheOriginalOrFailsWithAnIoException(@ForAll("damaged") Damaged d) {
    byte[] decoded;
    try {
      decoded = decode(d.damaged());
    } catch (IOException expected) {
      return; // answered 400 (or 413: RequestTooLarge is an IOException too)
    }
    // Cut right after a member, a body is a shorter valid one: gzip cannot tell.
    int member = d.encoded().memberEnds().indexOf(d.damaged().length);
    byte[] expected =
        d.damaged().length < d.encoded().bytes().length && member >= 0
            ? Arrays.copyOf(d.plain(), d.encoded().plainEnds().get(member))
            : d.plain();
    assertThat(decoded)
        .as("a damaged body that decodes must decode to the original")
        .isEqualTo(expected);
  }

  @Property
  void bombsStopAtTheDecompressedLimit(@ForAll("bombs") byte[] encoded) throws IOException {
    RequestBody body = RequestBody.open(new ByteArrayInputStream(encoded), null, "gzip", LIMITS);
    try {
      body.readAll();
      throw new AssertionError("a bomb over the limit was read whole");
    } catch (RequestTooLarge expected) {
      assertThat(body.bytesRead()).isLessThanOrEqualTo(MAX_DECOMPRESSED + 64 * 1024);
    }
  }

  /** A body, its encoding and a damaged copy of that. */
  record Damaged(byte[] plain, Encoded encoded, byte[] damaged) {}

  /** Gzip members and where each ends, in the encoding and in the body. */
  record Encoded(byte[] bytes, List<Integer> memberEnds, List<Integer> plainEnds) {}

  @Provide
  Arbitrary<byte[]> plain() {
    return Arbitraries.randomValue(r -> body(r));
  }

  @Provide
  Arbitrary<Damaged> damaged() {
    return Arbitraries.randomValue(
        r -> {
          byte[] plain = body(r);
          Encoded encoded = gzip(plain, r);
          byte[] bytes = encoded.bytes();
          byte[] damaged =
              switch (r.nextInt(3)) {
                case 0 -> Arrays.copyOf(bytes, r.nextInt(bytes.length));
                case 1 -> flip(bytes, r);
                default -> Mutations.mutate(r, bytes, 3);
              };
          return new Damaged(plain, encoded, damaged);
        });
  }

  @Provide
  Arbitrary<byte[]> bombs() {
    return Arbitraries.randomValue(
        r -> {
          byte[] unit = Mutations.randomBytes(r, 4);
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            byte[] block = new byte[1024];
            for (int i = 0; i < block.length; i++) {
              block[i] = unit.length == 0 ? 0 : unit[i % unit.length];
            }
            long total = MAX_DECOMPRESSED + 1 + r.nextInt(8 * 1024);
            for (long written = 0; written < total; written += block.length) {
              gz.write(block);
            }
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
          return out.toByteArray();
        });
  }

  private static byte[] decode(byte[] encoded) throws IOException {
    return RequestBody.open(new ByteArrayInputStream(encoded), null, "gzip", LIMITS).readAll();
  }

  /** Bytes, a third of them with a meaning in line protocol or JSON, up to 4 KiB. */
  private static byte[] body(Random r) {
    return Mutations.randomBytes(r, r.nextInt(4) == 0 ? 4096 : 200);
  }

  /** One gzip member, or the body split over two or three. */
  private static Encoded gzip(byte[] plain, Random r) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<Integer> memberEnds = new ArrayList<>();
    List<Integer> plainEnds = new ArrayList<>();
    int members = 1 + r.nextInt(3);
    int from = 0;
    try {
      for (int m = 0; m < members; m++) {
        int to = m == members - 1 ? plain.length : from + r.nextInt(plain.length - from + 1);
        out.write(Gzip.gzip(Arrays.copyOfRange(plain, from, to)));
        memberEnds.add(out.size());
        plainEnds.add(to);
        from = to;
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return new Encoded(out.toByteArray(), memberEnds, plainEnds);
  }

  private static byte[] flip(byte[] b, Random r) {
    byte[] out = b.clone();
    int at = r.nextInt(out.length);
    out[at] ^= (byte) (1 << r.nextInt(8));
    return out;
  }
}
