package io.skippr.connect.state.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.common.Sha256;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * How one entry of Connect's offsets topic is stored as an {@code offset#…} row: the id is the key
 * JSON itself and the value is the value JSON, unchanged. Keys too long for a row key (or not
 * UTF-8) get id {@code ~sha256:<hex>} and a small envelope holding both byte strings.
 */
final class OffsetRows {
  static final String HASHED_ID_PREFIX = "~sha256:";
  private static final int MAX_ID_BYTES =
      StateKey.MAX_KEY_BYTES - StateKind.OFFSET.prefix().length();
  private static final ObjectMapper JSON = new ObjectMapper();

  private OffsetRows() {}

  static StateKey key(StateScope scope, byte[] connectKey) {
    return StateKey.of(scope, StateKind.OFFSET, id(connectKey));
  }

  static byte[] value(byte[] connectKey, byte[] connectValue) {
    if (!hashed(id(connectKey))) {
      return connectValue;
    }
    ObjectNode envelope = JSON.createObjectNode();
    envelope.put("key", Base64.getEncoder().encodeToString(connectKey));
    envelope.put("value", Base64.getEncoder().encodeToString(connectValue));
    try {
      return JSON.writeValueAsBytes(envelope);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] connectKey(StateEntry row) {
    return hashed(row.key().id())
        ? envelopeField(row, "key")
        : row.key().id().getBytes(StandardCharsets.UTF_8);
  }

  static byte[] connectValue(StateEntry row) {
    return hashed(row.key().id()) ? envelopeField(row, "value") : row.value();
  }

  private static String id(byte[] connectKey) {
    String text = strictUtf8(connectKey);
    if (text != null
        && connectKey.length <= MAX_ID_BYTES
        && text.indexOf('\0') < 0
        && !text.isEmpty()
        && !hashed(text)) {
      return text;
    }
    return HASHED_ID_PREFIX + Sha256.hex(connectKey);
  }

  private static boolean hashed(String id) {
    return id.startsWith(HASHED_ID_PREFIX);
  }

  private static byte[] envelopeField(StateEntry row, String field) {
    try {
      JsonNode envelope = JSON.readTree(row.value());
      return Base64.getDecoder().decode(envelope.get(field).asText());
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("offset row " + row.key() + " has a broken envelope", e);
    }
  }

  private static String strictUtf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
