package io.skippr.connect.sink.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * JSON form of log entries: {@code {"version":1,"kind":"...",...}}. Version 2 marks entries that
 * only a reader that knows generations can fold correctly (a {@code generation} entry, and a
 * checkpoint of a generation above 0), version 3 those of maintenance (merges, expiry, deletion of
 * retired files), version 4 those after which files move into and out of their tables ({@link
 * FilePlacement}): a {@code compact-commit}, a {@code commit} that replaces files, and a checkpoint
 * that lists retired files (they wait under {@code _skippr/retired/}, and a file it lists as live
 * may still be staged). Everything else is still written as version 1, so lakes that never start a
 * new generation nor compact stay readable by older connectors.
 */
public final class LogCodec {
  /** The newest log format this code writes and reads; it reads every version from 1 on. */
  public static final int FORMAT_VERSION = 4;

  /** The log format of the entries of maintenance that move no file. */
  static final int MAINTENANCE_VERSION = 3;

  /** The log format of entries that only a reader that knows generations can fold. */
  static final int GENERATIONS_VERSION = 2;

  /** The log format of entries that older readers can fold. */
  static final int BASE_VERSION = 1;

  private static final String VERSION_FIELD = "version";
  private static final ObjectMapper MAPPER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private LogCodec() {}

  public static byte[] encode(LogEntry entry) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put(VERSION_FIELD, versionOf(entry));
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
    checkVersion(version.intValue(), "log entry " + where);
    ((ObjectNode) node).remove(VERSION_FIELD);
    try {
      return MAPPER.treeToValue(node, LogEntry.class);
    } catch (IOException | IllegalArgumentException e) {
      throw new LogFormatException("log entry " + where + " cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Refuses a format version this code does not know.
   *
   * @param what the document, for the message
   */
  static void checkVersion(int version, String what) {
    if (version < BASE_VERSION || version > FORMAT_VERSION) {
      throw new LogFormatException(
          what
              + " has log format version "
              + version
              + " but this connector reads only versions "
              + BASE_VERSION
              + " to "
              + FORMAT_VERSION
              + "; upgrade the connector to open it");
    }
  }

  private static int versionOf(LogEntry entry) {
    if (entry instanceof LogEntry.CompactCommit
        || (entry instanceof LogEntry.Commit commit && !commit.replaces().isEmpty())
        || (entry instanceof LogEntry.Checkpoint checkpoint && !checkpoint.retired().isEmpty())) {
      return FORMAT_VERSION; // an older reader would look for files where they no longer are
    }
    if (entry instanceof LogEntry.CompactIntent
        || entry instanceof LogEntry.CompactAbort
        || entry instanceof LogEntry.Expire
        || entry instanceof LogEntry.Purge) {
      return MAINTENANCE_VERSION; // an older reader would take retired files for live ones
    }
    boolean needsGenerations =
        entry instanceof LogEntry.Generation
            || (entry instanceof LogEntry.Checkpoint checkpoint && checkpoint.generation() > 0);
    return needsGenerations ? GENERATIONS_VERSION : BASE_VERSION;
  }
}
