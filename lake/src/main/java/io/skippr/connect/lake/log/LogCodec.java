package io.skippr.connect.lake.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * JSON form of log entries: {@code {"version":1,"lake":"…","kind":"...",…,"sha256":"…"}}.
 *
 * <p>Version 2 marks entries that only a reader that knows generations can fold correctly (a {@code
 * generation} entry, and a checkpoint of a generation above 0), version 3 those of maintenance
 * (merges, expiry, deletion of retired files), version 4 those after which files move into and out
 * of their tables ({@link FilePlacement}): a {@code compact-commit}, a {@code commit} that replaces
 * files, and a checkpoint that lists retired files (they wait under {@code _skippr/retired/}, and a
 * file it lists as live may still be staged). Everything else is still written as version 1, so
 * lakes that never start a new generation nor compact stay readable by older connectors.
 *
 * <p>Every entry names the lake it was written for ({@code lake}, the id in {@code
 * _skippr/lake.json}) and ends with the SHA-256 of its bytes before that field ({@link
 * SealedJson}); older readers ignore both. An entry that names its lake must carry its checksum and
 * match it; an entry without either was written before entries had them, by a writer of format
 * version 3 at most, and is held to {@link EntryChecks} alone. Every writer of version 4 seals its
 * entries, so a version 4 entry without its lake and checksum is refused.
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

  /** The newest log format of writers that did not seal their entries (nor name their lake). */
  static final int UNSEALED_VERSION = MAINTENANCE_VERSION;

  private static final String VERSION_FIELD = "version";
  private static final String LAKE_FIELD = "lake";

  /**
   * An entry as stored.
   *
   * @param lake the id of the lake the entry was written for; null in entries of older writers
   */
  public record Stored(LogEntry entry, String lake) {}

  private LogCodec() {}

  /**
   * Encodes an entry of the lake {@code lake}.
   *
   * @param lake the lake's id; null only for tests of entries as older writers wrote them
   */
  public static byte[] encode(LogEntry entry, String lake) {
    ObjectNode node = SealedJson.MAPPER.createObjectNode();
    node.put(VERSION_FIELD, versionOf(entry));
    if (lake != null) {
      node.put(LAKE_FIELD, lake);
    }
    node.setAll((ObjectNode) SealedJson.MAPPER.valueToTree(entry));
    return SealedJson.seal(node);
  }

  /** {@link #read}, for callers that need the entry only. */
  public static LogEntry decode(byte[] bytes, String where) {
    return read(bytes, where).entry();
  }

  /**
   * Decodes one entry.
   *
   * @param where the entry's key, for messages
   * @throws LogFormatException when the entry is not valid JSON, fails its checksum, has no or an
   *     unknown format version, an unknown kind, or fields missing or out of order
   */
  public static Stored read(byte[] bytes, String where) {
    String what = "log entry " + where;
    SealedJson.Opened opened = SealedJson.open(bytes, what);
    ObjectNode node = opened.node();
    String lake = header(node, opened.sealed(), what);
    EntryChecks.fields(node, what);
    LogEntry entry;
    try {
      entry = opened.mapper().treeToValue(node, LogEntry.class);
    } catch (java.io.IOException | RuntimeException e) {
      throw new LogFormatException(what + " cannot be read: " + SealedJson.firstLine(e), e);
    }
    EntryChecks.values(entry, what);
    return new Stored(entry, lake);
  }

  /**
   * Removes and checks the version and lake fields: a sealed writer's entry names its lake.
   *
   * @return the lake the entry names, or null for an entry of a version without one
   */
  private static String header(ObjectNode node, boolean sealed, String what) {
    JsonNode version = node.remove(VERSION_FIELD);
    if (version == null || !version.isIntegralNumber() || !version.canConvertToInt()) {
      throw new LogFormatException(what + " has no log format version");
    }
    checkVersion(version.intValue(), what);
    JsonNode lake = node.remove(LAKE_FIELD);
    if (lake != null && (!lake.isTextual() || lake.asText().isBlank())) {
      throw new LogFormatException(what + " names no lake in its lake field");
    }
    if (lake != null && !sealed) {
      throw new LogFormatException(
          what + " names its lake but has no checksum: it was edited after it was written");
    }
    if (version.intValue() > UNSEALED_VERSION && (lake == null || !sealed)) {
      throw new LogFormatException(
          what
              + " has log format version "
              + version.intValue()
              + " but no lake and checksum, which every writer of that version adds: it was"
              + " edited after it was written");
    }
    return lake == null ? null : lake.asText();
  }

  /**
   * Refuses a format version this code does not know.
   *
   * @param what the document, for the message
   */
  static void checkVersion(int version, String what) {
    if (version > FORMAT_VERSION) {
      throw LogFormatException.newerFormat(
          what
              + " has log format version "
              + version
              + " but this connector reads only versions "
              + BASE_VERSION
              + " to "
              + FORMAT_VERSION
              + "; upgrade the connector to open it");
    }
    if (version < BASE_VERSION) {
      throw new LogFormatException(
          what + " has log format version " + version + ", which no connector writes");
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
