package io.skippr.connect.source.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.source.http.config.LimitsConfig;
import io.skippr.connect.source.lineprotocol.LineLimits;
import io.skippr.connect.testkit.fuzz.Gzip;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

/** Gzip bodies are decoded strictly: every member, and nothing after the last one. */
class RequestBodyTest {

  private static final LimitsConfig.Values LIMITS =
      new LimitsConfig.Values(1 << 20, 1 << 20, 1000, LineLimits.DEFAULT, 1000, 1_000_000, 65536);

  @Test
  void decodesEveryMemberOfAGzipBody() throws IOException {
    byte[] body = Gzip.concat(gzip("a v=1i 1\n"), gzip("b v=2i 2\n"), gzip(""));
    assertThat(decode(body)).isEqualTo("a v=1i 1\nb v=2i 2\n");
  }

  @Test
  void bytesAfterTheLastMemberAreAnError() throws IOException {
    // Found by RequestBodyFuzzTest: the JDK's GZIPInputStream ignored them, and the rows with them.
    assertThatThrownBy(() -> decode(Gzip.concat(gzip("a v=1i 1\n"), utf8("b v=2i 2\n"))))
        .isInstanceOf(ZipException.class)
        .hasMessage("not gzip data where a gzip member should start");
    byte[] second = gzip("b v=2i 2\n");
    second[3] = (byte) 0xff; // reserved flag bits: still a member, but a damaged one
    second[0] = 0x1e;
    assertThatThrownBy(() -> decode(Gzip.concat(gzip("a v=1i 1\n"), second)))
        .isInstanceOf(ZipException.class);
  }

  @Test
  void aDamagedOrShortBodyIsAnError() throws IOException {
    byte[] body = gzip("a v=1i 1\n".repeat(100));
    assertThatThrownBy(() -> decode(Arrays.copyOf(body, body.length - 3)))
        .isInstanceOf(EOFException.class);
    byte[] flipped = body.clone();
    flipped[body.length - 6] ^= 1; // the CRC-32
    assertThatThrownBy(() -> decode(flipped))
        .isInstanceOf(ZipException.class)
        .hasMessageContaining("corrupt gzip trailer");
    assertThatThrownBy(() -> decode(new byte[0])).isInstanceOf(EOFException.class);
  }

  private static String decode(byte[] body) throws IOException {
    byte[] plain = RequestBody.open(new ByteArrayInputStream(body), null, "gzip", LIMITS).readAll();
    return new String(plain, StandardCharsets.UTF_8);
  }

  private static byte[] gzip(String text) {
    return Gzip.gzip(utf8(text));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
