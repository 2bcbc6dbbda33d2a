package io.skippr.connect.source.file.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NdjsonParserTest {

  private final NdjsonParser parser = new NdjsonParser();

  @Test
  void objectsBecomeSchemalessMapsInFieldOrder() {
    Parsed p =
        parser.parse(
            Frames.of(
                "{\"id\":7,\"price\":9.5,\"ok\":true,\"tags\":[\"a\",1],"
                    + "\"customer\":{\"city\":\"K\u00f6ln\"},\"note\":null}"));
    Map<String, Object> expected = new HashMap<>();
    expected.put("id", 7L);
    expected.put("price", 9.5);
    expected.put("ok", true);
    expected.put("tags", List.of("a", 1L));
    expected.put("customer", Map.of("city", "K\u00f6ln"));
    expected.put("note", null);
    assertThat(p.rejection()).isNull();
    assertThat(p.value()).isEqualTo(expected);
    assertThat(new java.util.ArrayList<Object>(((Map<?, ?>) p.value()).keySet()))
        .containsExactly("id", "price", "ok", "tags", "customer", "note");
    assertThat(p.topic()).isNull();
  }

  @Test
  void blankLinesAreSkippedNotRejected() {
    assertThat(parser.parse(Frames.of(""))).isNull();
    assertThat(parser.parse(Frames.of("  \t "))).isNull();
  }

  @Test
  void badLinesAreRejectedWithAReason() {
    assertThat(parser.parse(Frames.of("{\"a\":")).rejection()).startsWith("malformed JSON: ");
    assertThat(parser.parse(Frames.of("[1,2]")).rejection()).isEqualTo("line is not a JSON object");
    assertThat(parser.parse(Frames.of("42")).rejection()).isEqualTo("line is not a JSON object");
    assertThat(parser.parse(Frames.of("{\"a\":1} {\"b\":2}")).rejection())
        .isEqualTo("text after the JSON object");
    assertThat(parser.parse(Frames.of("{\"a\":1} x")).rejection()).startsWith("malformed JSON");
    assertThat(parser.parse(Frames.of("{\"n\":123456789012345678901234}")).rejection())
        .isEqualTo("integer 123456789012345678901234 outside the 64-bit range");
    assertThat(parser.parse(Frames.of("{\"n\":1e999}")).rejection())
        .isEqualTo("number 1e999 outside the 64-bit float range");
  }

  @Test
  void invalidUtf8IsRejected() {
    byte[] bad = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
    assertThat(parser.parse(Frames.of(bad)).rejection()).containsIgnoringCase("UTF-8");
  }

  @Test
  void aLineWithNulAmongItsFirstBytesIsReadAsUtf8AndRejected() {
    // Found by NdjsonParserFuzzTest: Jackson took these lines for UTF-16 (a NUL among an input's
    // first bytes is how it guesses) and accepted them as {} and {"a":1}.
    byte[] le = {'{', 0, '}', 0};
    byte[] be = {0, '{', 0, '"', 0, 'a', 0, '"', 0, ':', 0, '1', 0, '}'};
    assertThat(parser.parse(Frames.of(le)).rejection()).startsWith("malformed JSON: ");
    assertThat(parser.parse(Frames.of(be)).rejection()).startsWith("malformed JSON: ");
  }

  @Test
  void overlongFormsAndCodePointsBeyondUnicodeAreInvalidUtf8() {
    // Found by NdjsonParserFuzzTest: Jackson read C0 80 as NUL and F4 90 80 80 (beyond U+10FFFF)
    // as two garbled characters, and the lines were accepted.
    byte[] overlong = {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'};
    byte[] beyond = {
      '{', '"', 'a', '"', ':', '"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"', '}'
    };
    assertThat(parser.parse(Frames.of(overlong)).rejection())
        .isEqualTo("invalid UTF-8 at byte 6 of the record (0xc0)");
    assertThat(parser.parse(Frames.of(beyond)).rejection())
        .isEqualTo("invalid UTF-8 at byte 6 of the record (0xf4)");
    assertThat(parser.parse(Frames.of("{\"a\":\"\u00e9\uD83D\uDE00\u0800\"}")).value())
        .isEqualTo(Map.of("a", "\u00e9\uD83D\uDE00\u0800"));
  }
}
