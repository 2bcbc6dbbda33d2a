package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Hostile input made from well-formed JSON: a token swapped for a value of another kind or size, a
 * member twice, a member gone, the envelope's keys in the other order, whitespace, truncation,
 * trailing garbage, a byte flipped, surrogates and invalid UTF-8 in strings; and random JSON text
 * from a grammar with the same hostile tokens.
 */
final class HostileJson {
  static final List<String> LITERALS =
      List.of(
          "\"x\"",
          "\"\"",
          "0",
          "-0",
          "-0.0",
          "0.0",
          "1.5",
          "1.0",
          "1e2",
          "127",
          "128",
          "-129",
          "300",
          "32768",
          "40000",
          "2147483648",
          "3000000000",
          "9223372036854775807",
          "9223372036854775808",
          "-9223372036854775809",
          "123456789012345678901234567890",
          "1e39",
          "3.4028235e38",
          "1e400",
          "-1e400",
          "1e-400",
          "-1e-400",
          "1e9999999999",
          "007",
          "-007.50",
          "true",
          "false",
          "null",
          "{}",
          "[]",
          "[1,null]",
          "{\"a\":1}",
          "[[1,2]]",
          "[[\"k\",1]]",
          "\"NaN\"",
          "\"Infinity\"",
          "\"-Infinity\"",
          "\"AQID\"",
          "\" AQ== \"",
          "\"AQI\"",
          "\"!!\"",
          "\"\\ud800\"",
          "\"\\ud83d\\ude00\"",
          "\"\\u0000\"",
          "\"é日本\"",
          "1.00000017881393432617187499",
          "0.1",
          "86400000",
          "86400001",
          "-1",
          "19000",
          "1700000000000",
          "2.5e-324",
          "4.9e-324",
          "1.7976931348623159e308");

  private static final List<String> GARBAGE =
      List.of("x", "}", "]", ",", " {", "{\"a\":", "\u0000", "\"", "/*", "1", " null", "\n\n");

  private static final JsonFactory TOKENS =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS).build();

  private HostileJson() {}

  /** Applies one to three mutations chosen by the seed. */
  static byte[] mutate(byte[] json, long seed) {
    Random random = new Random(seed);
    byte[] out = json;
    int rounds = 1 + random.nextInt(3);
    for (int i = 0; i < rounds; i++) {
      out = mutateOnce(out, random);
    }
    return out;
  }

  private static byte[] mutateOnce(byte[] json, Random r) {
    List<Token> tokens = tokens(json);
    int op = r.nextInt(12);
    if (tokens.isEmpty() && op < 6) {
      op = 6 + r.nextInt(6);
    }
    return switch (op) {
      case 0, 1, 2 -> replace(json, pick(tokens, r, false), pickLiteral(r));
      case 3 -> duplicateMember(json, tokens, r);
      case 4 -> removeMember(json, tokens, r);
      case 5 -> replace(json, pick(tokens, r, false), unicode(r));
      case 6 -> truncate(json, r);
      case 7 ->
          concat(json, GARBAGE.get(r.nextInt(GARBAGE.size())).getBytes(StandardCharsets.UTF_8));
      case 8 -> whitespace(json, tokens, r);
      case 9 -> flip(json, r);
      case 10 -> swapEnvelope(json);
      default -> invalidUtf8(json, tokens, r);
    };
  }

  /** A token's byte range (for a member's name: where the name starts) and a name's text. */
  record Token(JsonToken kind, int start, int end, String name) {}

  static List<Token> tokens(byte[] json) {
    List<Token> tokens = new ArrayList<>();
    try (JsonParser p = TOKENS.createParser(json)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        int start = (int) p.currentTokenLocation().getByteOffset();
        String name = t == JsonToken.FIELD_NAME ? p.currentName() : null;
        if (t == JsonToken.VALUE_STRING) {
          p.getText();
        }
        tokens.add(new Token(t, start, (int) p.currentLocation().getByteOffset(), name));
        boolean valueEnds = t.isScalarValue() || t.isStructEnd();
        if (valueEnds && p.getParsingContext().inRoot()) {
          break;
        }
      }
    } catch (Exception e) {
      // not JSON (any more) from here on: what was found so far is kept
    }
    return tokens;
  }

  private static Token pick(List<Token> tokens, Random r, boolean fieldNames) {
    List<Token> candidates = new ArrayList<>();
    for (Token t : tokens) {
      boolean wanted = fieldNames ? t.kind() == JsonToken.FIELD_NAME : t.kind().isScalarValue();
      if (wanted) {
        candidates.add(t);
      }
    }
    return candidates.isEmpty()
        ? tokens.get(r.nextInt(tokens.size()))
        : candidates.get(r.nextInt(candidates.size()));
  }

  private static String pickLiteral(Random r) {
    return LITERALS.get(r.nextInt(LITERALS.size()));
  }

  private static byte[] replace(byte[] json, Token t, String literal) {
    return splice(json, t.start(), t.end(), literal.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] duplicateMember(byte[] json, List<Token> tokens, Random r) {
    Token name = pick(tokens, r, true);
    if (name.kind() != JsonToken.FIELD_NAME) {
      return json;
    }
    String member = quoted(name.name()) + ":" + pickLiteral(r) + ",";
    return splice(json, name.start(), name.start(), member.getBytes(StandardCharsets.UTF_8));
  }

  private static String quoted(String name) {
    try {
      return Differential.KAFKA_TREES.writeValueAsString(name);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] removeMember(byte[] json, List<Token> tokens, Random r) {
    Token name = pick(tokens, r, true);
    if (name.kind() != JsonToken.FIELD_NAME) {
      return json;
    }
    int i = tokens.indexOf(name);
    if (i + 1 >= tokens.size() || !tokens.get(i + 1).kind().isScalarValue()) {
      return json;
    }
    Token value = tokens.get(i + 1);
    int end = value.end();
    if (end < json.length && json[end] == ',') {
      end++;
    }
    return splice(json, name.start(), end, new byte[0]);
  }

  private static String unicode(Random r) {
    String[] options = {
      "\"\\ud800\"",
      "\"\\udfff\\ud800\"",
      "\"\\ud83d\\ude00\"",
      "\"😀\"",
      "\"\\u00e9\"",
      "\"é\"",
      "\"\\u0000\\u001f\"",
      "\"\\/\"",
      "\"a\\\"b\"",
      "\"\\uD834\\uDD1E\""
    };
    return options[r.nextInt(options.length)];
  }

  private static byte[] truncate(byte[] json, Random r) {
    return json.length == 0 ? json : Arrays.copyOf(json, r.nextInt(json.length));
  }

  private static byte[] whitespace(byte[] json, List<Token> tokens, Random r) {
    if (tokens.isEmpty()) {
      return concat(" ".getBytes(StandardCharsets.US_ASCII), json);
    }
    Token t = tokens.get(r.nextInt(tokens.size()));
    String[] ws = {" ", "\n", "\t", "\r\n", "  \n  "};
    int at = r.nextBoolean() ? t.start() : t.end();
    return splice(json, at, at, ws[r.nextInt(ws.length)].getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] flip(byte[] json, Random r) {
    if (json.length == 0) {
      return new byte[] {(byte) r.nextInt(256)};
    }
    byte[] out = json.clone();
    out[r.nextInt(out.length)] = (byte) r.nextInt(256);
    return out;
  }

  private static byte[] swapEnvelope(byte[] json) {
    try {
      var tree = Differential.KAFKA_TREES.readTree(json);
      if (tree != null && tree.isObject() && tree.has("schema") && tree.has("payload")) {
        String swapped =
            "{\"payload\":" + tree.get("payload") + ",\"schema\":" + tree.get("schema") + "}";
        return swapped.getBytes(StandardCharsets.UTF_8);
      }
    } catch (Exception e) {
      // not an envelope
    }
    return json;
  }

  private static byte[] invalidUtf8(byte[] json, List<Token> tokens, Random r) {
    byte[][] bad = {
      {(byte) 0xc3, 0x28},
      {(byte) 0xff},
      {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
      {(byte) 0xe6, (byte) 0x97},
      {(byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80}
    };
    for (Token t : tokens) {
      if (t.kind() == JsonToken.VALUE_STRING && r.nextBoolean()) {
        return splice(json, t.start() + 1, t.start() + 1, bad[r.nextInt(bad.length)]);
      }
    }
    return flip(json, r);
  }

  private static byte[] splice(byte[] json, int start, int end, byte[] insert) {
    // offsets of a parser that guessed another encoding may fall outside: keep them in range
    int from = Math.max(0, Math.min(start, json.length));
    int to = Math.max(from, Math.min(end, json.length));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(json, 0, from);
    out.writeBytes(insert);
    out.write(json, to, json.length - to);
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    return splice(a, a.length, a.length, b);
  }

  /** Random JSON text with the hostile tokens, duplicate keys and odd whitespace. */
  static String randomJson(long seed, int depth) {
    Random r = new Random(seed);
    StringBuilder out = new StringBuilder();
    value(r, depth, out);
    return out.toString();
  }

  private static void value(Random r, int depth, StringBuilder out) {
    int kind = depth <= 0 ? 0 : r.nextInt(4);
    if (kind == 0 || kind == 1) {
      out.append(r.nextInt(4) == 0 ? unicode(r) : pickLiteral(r));
    } else if (kind == 2) {
      out.append('[');
      int n = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        out.append(i > 0 ? "," : "");
        value(r, depth - 1, out);
      }
      out.append(']');
    } else {
      out.append('{');
      int n = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        out.append(i > 0 ? ", " : "").append('"').append("abc".charAt(r.nextInt(3))).append("\": ");
        value(r, depth - 1, out);
      }
      out.append('}');
    }
  }
}
