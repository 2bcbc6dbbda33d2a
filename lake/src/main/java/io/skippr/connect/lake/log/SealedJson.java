package io.skippr.connect.lake.log;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.common.Sha256;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;

/**
 * The JSON documents the lake keeps of its own (TP log entries, table schemas): each ends with the
 * SHA-256 of its bytes before that field, {@code …,"sha256":"<64 hex>"}}, so an entry truncated,
 * edited by hand or damaged in storage is refused instead of read as something it never said.
 * Documents written before the lake sealed them have no such field and are read as they are, held
 * to the fields older writers wrote (a damaged field name, such as the checksum's own, is refused);
 * a reader that predates the field ignores it.
 *
 * <p>Reading is strict: one JSON object, no trailing content, no key twice, no number read from a
 * string or a fraction.
 */
final class SealedJson {
  /** The field that ends a sealed document. */
  static final String FIELD = "sha256";

  /** Maps documents; unknown fields are ignored (newer writers may add some). */
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .build();

  private static final byte[] SUFFIX_START =
      (",\"" + FIELD + "\":\"").getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SUFFIX_END = "\"}".getBytes(StandardCharsets.US_ASCII);
  private static final int HEX_DIGITS = 64;
  private static final int SUFFIX_LENGTH = SUFFIX_START.length + HEX_DIGITS + SUFFIX_END.length;

  /** Maps documents without a checksum: they may hold only fields older writers wrote. */
  static final ObjectMapper UNSEALED =
      MAPPER.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /**
   * A document as read.
   *
   * @param node its fields, without {@value #FIELD}
   * @param sealed whether it carried its checksum (false for documents of older writers)
   */
  record Opened(ObjectNode node, boolean sealed) {
    /** The mapper for its fields: strict about unknown fields when it has no checksum. */
    ObjectMapper mapper() {
      return sealed ? MAPPER : UNSEALED;
    }

    /**
     * Refuses a document without a checksum that holds a field older writers never wrote: a
     * checksum or a field whose name was damaged.
     */
    void onlyFields(Set<String> known, String what) {
      if (!sealed) {
        node.fieldNames()
            .forEachRemaining(
                name -> {
                  if (!known.contains(name)) {
                    throw new LogFormatException(
                        what
                            + " has no checksum and a field "
                            + name
                            + " no writer wrote: damaged");
                  }
                });
      }
    }
  }

  private SealedJson() {}

  /** The document's bytes, ending with the checksum of the bytes before it. */
  static byte[] seal(ObjectNode node) {
    if (node.isEmpty() || node.has(FIELD)) {
      throw new IllegalArgumentException("a sealed document needs fields and no " + FIELD);
    }
    byte[] json;
    try {
      json = MAPPER.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      // not the node in the message: what cannot be written cannot be printed either
      throw new IllegalStateException("cannot encode a document: " + e.getOriginalMessage(), e);
    }
    byte[] body = Arrays.copyOf(json, json.length - 1); // without the closing brace
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + SUFFIX_LENGTH);
    out.writeBytes(body);
    out.writeBytes(SUFFIX_START);
    out.writeBytes(Sha256.hex(body).getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(SUFFIX_END);
    return out.toByteArray();
  }

  /**
   * Reads a document and checks its checksum when it has one.
   *
   * @param what the document, for messages (e.g. {@code log entry
   *     s3://bucket/…/00000000000000000007.json})
   * @throws LogFormatException when it is no JSON object, or fails its checksum
   */
  static Opened open(byte[] bytes, String what) {
    JsonNode node;
    try {
      node = MAPPER.readTree(bytes);
    } catch (IOException e) {
      throw new LogFormatException(
          what + " is not valid JSON (truncated or damaged): " + firstLine(e), e);
    }
    if (!(node instanceof ObjectNode object)) {
      throw new LogFormatException(what + " is not a JSON object (truncated or damaged)");
    }
    JsonNode checksum = object.remove(FIELD);
    if (checksum == null) {
      return new Opened(object, false);
    }
    int bodyEnd = bytes.length - SUFFIX_LENGTH;
    if (!checksum.isTextual() || bodyEnd < 1 || !endsWithSuffix(bytes, bodyEnd)) {
      throw new LogFormatException(
          what + " has a checksum that is not where the lake writes it: it was edited");
    }
    String recorded =
        new String(bytes, bodyEnd + SUFFIX_START.length, HEX_DIGITS, StandardCharsets.US_ASCII);
    String actual = Sha256.hex(Arrays.copyOf(bytes, bodyEnd));
    if (!actual.equals(recorded)) {
      throw new LogFormatException(
          what
              + " fails its checksum (sha256 "
              + actual
              + ", the document records "
              + recorded
              + "): it was changed after it was written, edited by hand or damaged in storage");
    }
    return new Opened(object, true);
  }

  private static boolean endsWithSuffix(byte[] bytes, int bodyEnd) {
    if (!Arrays.equals(
        bytes, bodyEnd, bodyEnd + SUFFIX_START.length, SUFFIX_START, 0, SUFFIX_START.length)) {
      return false;
    }
    int hexStart = bodyEnd + SUFFIX_START.length;
    for (int i = hexStart; i < hexStart + HEX_DIGITS; i++) {
      byte b = bytes[i];
      if (!((b >= '0' && b <= '9') || (b >= 'a' && b <= 'f'))) {
        return false;
      }
    }
    return Arrays.equals(
        bytes, hexStart + HEX_DIGITS, bytes.length, SUFFIX_END, 0, SUFFIX_END.length);
  }

  /** The parser's message without where in the source Jackson found the problem. */
  static String firstLine(Exception e) {
    String message =
        e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
    message = String.valueOf(message);
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
