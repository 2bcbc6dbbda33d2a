package io.skippr.connect.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.connect.storage.ConverterType;

/**
 * The regression corpus: one JSON object a line, a setup and an input, kept in
 * src/test/resources/regressions/*.jsonl. A failing differential check prints its case as such a
 * line, ready to be added.
 */
final class Regressions {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One kept input with its setup and a note on what it exercises. */
  record Case(Setup setup, byte[] input, String note) {
    @Override
    public String toString() {
      return note + " " + line(setup, input);
    }
  }

  private Regressions() {}

  static String line(Setup setup, byte[] input) {
    ObjectNode line = JSON.createObjectNode();
    line.put("schemas", setup.schemasEnable());
    line.put("decimal", setup.decimalFormat().name());
    line.put("replaceNull", setup.replaceNullWithDefault());
    line.put("cache", setup.cacheSize());
    line.put("role", setup.role().getName());
    if (setup.schemaContent() != null) {
      line.put("content", setup.schemaContent());
    }
    String text = utf8(input);
    if (text != null) {
      line.put("input", text);
    } else {
      line.put("base64", Base64.getEncoder().encodeToString(input));
    }
    line.put("note", "");
    return line.toString();
  }

  static List<Case> load(String resource) {
    List<Case> cases = new ArrayList<>();
    try (InputStream in = Regressions.class.getResourceAsStream(resource);
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (!line.isBlank() && !line.startsWith("#")) {
          cases.add(parse(JSON.readTree(line)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return cases;
  }

  private static Case parse(JsonNode line) {
    Setup setup =
        new Setup(
            line.path("schemas").asBoolean(true),
            DecimalFormat.valueOf(line.path("decimal").asText("BASE64").toUpperCase(Locale.ROOT)),
            line.path("replaceNull").asBoolean(true),
            line.path("cache").asInt(1000),
            line.hasNonNull("content") ? line.get("content").asText() : null,
            ConverterType.withName(line.path("role").asText("value")));
    byte[] input =
        line.has("base64")
            ? Base64.getDecoder().decode(line.get("base64").asText())
            : line.get("input").asText().getBytes(StandardCharsets.UTF_8);
    return new Case(setup, input, line.path("note").asText());
  }

  private static String utf8(byte[] input) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(input)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
