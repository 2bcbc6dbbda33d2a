package io.skippr.connect.source.http.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Regression cases of JsonItemsFuzzTest, each with the minimal input it found. */
class JsonItemsTest {

  @Test
  void textThatIsNotUnicodeRejectsOnlyItsItem() throws Exception {
    // Found by JsonItemsFuzzTest: F4 90 80 80 (beyond U+10FFFF) came through as two low
    // surrogates, which JsonConverter wrote as bytes it could not read back.
    byte[] body =
        bytes(
            "{\"ok\":1}\n{\"k",
            new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            "\":false}\n{\"ok\":2}\n");
    List<JsonItems.Item> items = JsonItems.parse(body, body.length, 10);
    assertThat(items)
        .extracting(JsonItems.Item::value)
        .containsExactly(Map.of("ok", 1L), null, Map.of("ok", 2L));
    assertThat(items.get(1).rejection()).isEqualTo("not valid UTF-8 (at byte 3)");
  }

  @Test
  void anEscapedUnpairedSurrogateRejectsItsItem() throws Exception {
    byte[] body = bytes("{\"s\":\"\\uD800\"}\n{\"s\":\"\\uD83D\\uDE80\"}\n");
    List<JsonItems.Item> items = JsonItems.parse(body, body.length, 10);
    assertThat(items.get(0).rejection())
        .isEqualTo(
            "a string holds an unpaired surrogate (an escape of half a character, like"
                + " \\uD800)");
    assertThat(items.get(1).value()).isEqualTo(Map.of("s", "\uD83D\uDE80"));
  }

  @Test
  void anArrayThatIsNotUtf8IsRejectedWhole() throws Exception {
    byte[] body = bytes("[{\"a\":\"", new byte[] {(byte) 0xC3, 0x28}, "\"}]");
    List<JsonItems.Item> items = JsonItems.parse(body, body.length, 10);
    assertThat(items)
        .singleElement()
        .extracting(JsonItems.Item::rejection)
        .isEqualTo("malformed JSON: not valid UTF-8 (at byte 7)");
  }

  @Test
  void aLineWithTextAfterItsValueIsRejected() throws Exception {
    // Found by JsonItemsFuzzTest: the text after the first value of a line was ignored.
    byte[] body = bytes("{\"a\":1}\n{\"b\":\"\\\\\"}\\slash\n");
    List<JsonItems.Item> items = JsonItems.parse(body, body.length, 10);
    assertThat(items.get(0).value()).isEqualTo(Map.of("a", 1L));
    assertThat(items).hasSize(2);
    assertThat(items.get(1).value()).isNull();
    assertThat(items.get(1).rejection()).startsWith("malformed JSON: Unexpected character");
  }

  @Test
  void controlCharactersAreNotWhitespace() throws Exception {
    // Found by JsonItemsFuzzTest (200,000 tries): 0x1C before a body was skipped as whitespace,
    // and a line of 0x1F alone was a blank line, dropped without a rejection.
    byte[] body = bytes("\u001c{}1");
    assertThat(JsonItems.parse(body, body.length, 10))
        .singleElement()
        .satisfies(item -> assertThat(item.rejection()).startsWith("malformed JSON: "));
    byte[] lines = bytes("{\"a\":1}\n\u001f\n{\"a\":");
    List<JsonItems.Item> items = JsonItems.parse(lines, lines.length, 10);
    assertThat(items).hasSize(3);
    assertThat(items.get(1).rejection()).startsWith("malformed JSON: ");
  }

  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object p : parts) {
      byte[] b = p instanceof byte[] raw ? raw : ((String) p).getBytes(StandardCharsets.UTF_8);
      out.write(b, 0, b.length);
    }
    return out.toByteArray();
  }
}
