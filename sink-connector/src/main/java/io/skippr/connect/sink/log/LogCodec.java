package io.skippr.connect.sink.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** JSON form of log entries: {@code {"version":1,"kind":"...",...}}. */
public final class LogCodec {
  /** The log format this code writes and the only one it reads. */
  public static final int FORMAT_VERSION = 1;

  private static final String VERSION_FIELD = "version";
  private static final ObjectMapper MAPPER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private LogCodec() {}

  public static byte[] encode(LogEntry entry) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put(VERSION_FIELD, FORMAT_VERSION);
    node.setAll((ObjectNode) MAPPER.valueToTree(entry));
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode log entry " + entry, e);
    }
  }

  /**
   * Decodes one entry.
   *
   * @param where the entry's key, for messages
   * @throws LogFormatException when the entry is not valid JSON, has no or an unknown format
   *     version, or an unknown kind
   */
  public static LogEntry decode(byte[] bytes, String where) {
    JsonNode node;
    try {
      node = MAPPER.readTree(bytes);
    } catch (IOException e) {
      throw new LogFormatException("log entry " + where + " is not valid JSON", e);
    }
    JsonNode version = node == null ? null : node.get(VERSION_FIELD);
    if (version == null || !version.canConvertToInt()) {
      throw new LogFormatException("log entry " + where + " has no log format version");
    }
    if (version.intValue() != FORMAT_VERSION) {
      throw new LogFormatException(
          "log entry "
              + where
              + " has log format version "
              + version.intValue()
              + " but this connector reads only version "
              + FORMAT_VERSION
              + "; upgrade the connector to open this partition");
    }
    ((ObjectNode) node).remove(VERSION_FIELD);
    try {
      return MAPPER.treeToValue(node, LogEntry.class);
    } catch (IOException | IllegalArgumentException e) {
      throw new LogFormatException("log entry " + where + " cannot be read: " + e.getMessage(), e);
    }
  }
}
