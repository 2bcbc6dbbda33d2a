package io.skippr.connect.lake.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PathEncoderTest {
  /** Unreserved characters, {@code ~} only as the hash marker, and uppercase %XX escapes. */
  private static final Pattern SAFE =
      Pattern.compile("([A-Za-z0-9_\\-.]|%[0-9A-F]{2})*(~[0-9a-f]{32})?");

  @Test
  void hostileValues() {
    assertThat(PathEncoder.encode("../x")).isEqualTo("%2E.%2Fx");
    assertThat(PathEncoder.encode("a/b")).isEqualTo("a%2Fb");
    assertThat(PathEncoder.encode("a\\b")).isEqualTo("a%5Cb");
    assertThat(PathEncoder.encode("..")).isEqualTo("%2E.");
    assertThat(PathEncoder.encode(".")).isEqualTo("%2E");
    assertThat(PathEncoder.encode(".hidden")).isEqualTo("%2Ehidden");
    assertThat(PathEncoder.encode("a.b")).isEqualTo("a.b");
    assertThat(PathEncoder.encode("nul\u0000byte")).isEqualTo("nul%00byte");
    assertThat(PathEncoder.encode("tab\tnl\n\u007f")).isEqualTo("tab%09nl%0A%7F");
    assertThat(PathEncoder.encode("%2F")).isEqualTo("%252F");
    assertThat(PathEncoder.encode("k=v")).isEqualTo("k%3Dv");
    assertThat(PathEncoder.encode("a b~c")).isEqualTo("a%20b%7Ec");
    assertThat(PathEncoder.encode("Ab9_-")).isEqualTo("Ab9_-");
  }

  @Test
  void unicodeIsPercentEncodedUtf8() {
    assertThat(PathEncoder.encode("é")).isEqualTo("%C3%A9");
    assertThat(PathEncoder.encode("😀")).isEqualTo("%F0%9F%98%80");
    assertThat(PathEncoder.encode("שלום")).isEqualTo("%D7%A9%D7%9C%D7%95%D7%9D");
    assertThat(PathEncoder.encode("a\u202Eb")).isEqualTo("a%E2%80%AEb");
    // an unpaired surrogate is not confused with '?'
    assertThat(PathEncoder.encode("\uD800")).isEqualTo("%ED%A0%80");
    assertThat(PathEncoder.encode("?")).isEqualTo("%3F");
  }

  @Test
  void nullAndEmptyHaveDistinctSentinels() {
    assertThat(PathEncoder.encode(null)).isEqualTo("__HIVE_DEFAULT_PARTITION__");
    assertThat(PathEncoder.encode("")).isEqualTo("__empty__");
    assertThat(PathEncoder.encode("__HIVE_DEFAULT_PARTITION__"))
        .isEqualTo("%5F_HIVE_DEFAULT_PARTITION__");
    assertThat(PathEncoder.encode("__empty__")).isEqualTo("%5F_empty__");
    assertThat(PathEncoder.decode("__HIVE_DEFAULT_PARTITION__")).isNull();
    assertThat(PathEncoder.decode("__empty__")).isEmpty();
    assertThat(PathEncoder.decode("%5F_empty__")).isEqualTo("__empty__");
    assertThat(PathEncoder.segment("region", null)).isEqualTo("region=__HIVE_DEFAULT_PARTITION__");
    assertThat(PathEncoder.segment("region", "")).isEqualTo("region=__empty__");
  }

  @Test
  void longValuesAreTruncatedWithAHash() throws Exception {
    String tenKb = "x".repeat(10_000);
    String encoded = PathEncoder.encode(tenKb);
    assertThat(encoded).hasSize(255);
    assertThat(encoded).isEqualTo("x".repeat(222) + "~" + sha256Prefix(tenKb));
    String other = "x".repeat(9_999) + "y";
    assertThat(PathEncoder.encode(other)).isNotEqualTo(encoded).hasSize(255);
    // escapes are never cut in half
    String emoji = "😀".repeat(100);
    String encodedEmoji = PathEncoder.encode(emoji);
    assertThat(encodedEmoji).hasSizeLessThanOrEqualTo(255);
    assertThat(encodedEmoji).startsWith("%F0%9F%98%80").contains("~");
    assertThat(SAFE.matcher(encodedEmoji).matches()).isTrue();
    // a segment keeps within 255 bytes with its name
    String segment = PathEncoder.segment("customer_name", tenKb);
    assertThat(segment).hasSize(255).startsWith("customer_name=xxx");
  }

  @Test
  void decodeReversesEncode() {
    for (String value :
        new String[] {"../x", "a/b", "..", ".", "\u0000", "%2F", "😀 שלום", "k=v", "__empty__"}) {
      assertThat(PathEncoder.decode(PathEncoder.encode(value))).isEqualTo(value);
    }
  }

  @Test
  void randomStringsGiveSafeDistinctSegments() {
    Random random = new Random(20_241_129L);
    Map<String, String> seen = new HashMap<>();
    Set<String> inputs = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      String value = randomString(random);
      inputs.add(value);
      String encoded = PathEncoder.encode(value);
      assertThat(PathEncoder.isSafeSegment(encoded)).as("safe: %s", encoded).isTrue();
      assertThat(encoded.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
      assertThat(encoded).isNotIn(".", "..");
      assertThat(encoded).doesNotStartWith(".");
      if (!encoded.equals("__HIVE_DEFAULT_PARTITION__") && !encoded.equals("__empty__")) {
        assertThat(SAFE.matcher(encoded).matches()).as("alphabet: %s", encoded).isTrue();
      }
      String previous = seen.putIfAbsent(encoded, value);
      assertThat(previous == null || previous.equals(value))
          .as("%s and %s both encode to %s", previous, value, encoded)
          .isTrue();
      String segment = PathEncoder.segment("f", value);
      assertThat(PathEncoder.isSafeSegment(segment)).isTrue();
      assertThat(segment.indexOf('=')).isEqualTo(1);
      assertThat(segment.lastIndexOf('=')).isEqualTo(1);
    }
    assertThat(seen.size()).isEqualTo(inputs.size());
    assertThat(inputs.size()).isGreaterThan(8_000);
  }

  private static String randomString(Random random) {
    int kind = random.nextInt(10);
    int length =
        kind == 0 ? 0 : kind == 1 ? 200 + random.nextInt(400) : 1 + random.nextInt(kind * 4);
    String alphabet = "./\\%=_-~ aZ09\u0000\n\u007f";
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(5)) {
        case 0 -> out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        case 1 -> out.append((char) random.nextInt(0x80));
        case 2 -> out.append((char) random.nextInt(0x10000));
        case 3 -> out.appendCodePoint(0x10000 + random.nextInt(0x10FFFF - 0x10000));
        default -> out.append("..");
      }
    }
    return random.nextInt(50) == 0 ? null : out.toString();
  }

  private static String sha256Prefix(String value) throws Exception {
    byte[] hash =
        MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(hash).substring(0, 32);
  }
}
