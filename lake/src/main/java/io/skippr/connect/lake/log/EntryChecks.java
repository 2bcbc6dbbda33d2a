package io.skippr.connect.lake.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What every log entry must hold on its own, checked when it is read: the fields every version of
 * its kind wrote (a field that is absent would otherwise read as 0 or null), offsets in order, and
 * a unit id that names the unit's offsets. Entries sealed with a checksum cannot be edited
 * unnoticed; these checks are what an entry of an older writer, which has no checksum, is held to.
 */
final class EntryChecks {
  /** Fields every version wrote, per kind; null only where the entry allows it. */
  private static final Map<String, List<String>> REQUIRED =
      Map.ofEntries(
          Map.entry("epoch", List.of("epoch", "atMs")),
          Map.entry(
              "intent",
              List.of("id", "start", "end", "epoch", "wallclockMs", "configFingerprint", "files")),
          Map.entry("commit", List.of("id", "start", "end", "epoch", "files")),
          Map.entry("abort", List.of("id", "epoch")),
          Map.entry("checkpoint", List.of("epoch", "maxEpoch", "liveFiles", "tables")),
          Map.entry("generation", List.of("epoch", "generation", "startOffset", "previousEnd")),
          Map.entry("compact-intent", List.of("id", "epoch", "atMs", "inputs", "outputs")),
          Map.entry(
              "compact-commit",
              List.of("id", "epoch", "atMs", "inputs", "outputs", "deleteAfterMs")),
          Map.entry("compact-abort", List.of("id", "epoch")),
          Map.entry("expire", List.of("epoch", "atMs", "files")),
          Map.entry("purge", List.of("epoch", "files")));

  private static final List<String> LIVE_FILE =
      List.of("key", "rows", "bytes", "sha256", "schemaFingerprint");
  private static final List<String> UNIT = List.of("id", "start", "end", "epoch");
  private static final List<String> RETIRED = List.of("key", "deleteAfterMs");

  private EntryChecks() {}

  /**
   * Checks that an entry's fields are all there (before it is mapped, while an absent number can
   * still be told from a 0).
   *
   * @throws LogFormatException naming the first field that is missing
   */
  static void fields(ObjectNode node, String what) {
    String kind = node.path("kind").asText(null);
    List<String> required = kind == null ? null : REQUIRED.get(kind);
    if (required == null) {
      throw new LogFormatException(
          what + (node.has("kind") ? " has an unknown kind " + node.get("kind") : " has no kind"));
    }
    present(node, required, what);
    if (kind.equals("commit")) {
      liveFiles(node.get("files"), what + " (files)");
    } else if (kind.equals("compact-commit")) {
      liveFiles(node.get("outputs"), what + " (outputs)");
    } else if (kind.equals("checkpoint")) {
      checkpointFields(node, what);
    }
  }

  private static void checkpointFields(ObjectNode node, String what) {
    if (!node.has("lastCommit")) {
      throw new LogFormatException(what + " lacks the field lastCommit");
    }
    JsonNode last = node.get("lastCommit");
    if (!last.isNull()) {
      present(last, UNIT, what + " (lastCommit)");
    }
    liveFiles(node.get("liveFiles"), what + " (liveFiles)");
    JsonNode retired = node.get("retired");
    if (retired != null && retired.isArray()) {
      for (JsonNode file : retired) {
        present(file, RETIRED, what + " (retired)");
      }
    }
    JsonNode compacting = node.get("compacting");
    if (compacting != null && !compacting.isNull()) {
      present(compacting, REQUIRED.get("compact-intent"), what + " (compacting)");
    }
  }

  private static void liveFiles(JsonNode files, String what) {
    if (files.isArray()) {
      for (JsonNode file : files) {
        present(file, LIVE_FILE, what);
      }
    }
  }

  private static void present(JsonNode node, List<String> fields, String what) {
    if (!node.isObject()) {
      throw new LogFormatException(what + " holds " + node + " where an object belongs");
    }
    for (String field : fields) {
      if (!node.hasNonNull(field)) {
        throw new LogFormatException(what + " lacks the field " + field);
      }
    }
  }

  /**
   * Checks the values of a mapped entry.
   *
   * @throws LogFormatException naming what is wrong
   */
  static void values(LogEntry entry, String what) {
    if (entry.epoch() < 0) {
      throw new LogFormatException(what + " has a negative epoch " + entry.epoch());
    }
    if (entry instanceof LogEntry.Epoch claim) {
      atLeast(claim.epoch(), 1, "epoch", what);
    } else if (entry instanceof LogEntry.Intent intent) {
      unit(intent.id(), intent.start(), intent.end(), what);
      keys(intent.files(), what);
    } else if (entry instanceof LogEntry.Commit commit) {
      unit(commit.id(), commit.start(), commit.end(), what);
      liveFiles(commit.files(), what);
      keys(commit.replaces(), what);
    } else if (entry instanceof LogEntry.Abort abort) {
      id(abort.id(), what);
    } else if (entry instanceof LogEntry.Checkpoint checkpoint) {
      checkpoint(checkpoint, what);
    } else if (entry instanceof LogEntry.Generation next) {
      atLeast(next.generation(), 1, "generation", what);
      atLeast(next.startOffset(), -1, "startOffset", what);
      atLeast(next.previousEnd(), -1, "previousEnd", what);
    } else {
      maintenanceValues(entry, what);
    }
  }

  private static void maintenanceValues(LogEntry entry, String what) {
    if (entry instanceof LogEntry.CompactIntent merge) {
      id(merge.id(), what);
      keys(merge.inputs(), what);
      keys(merge.outputs(), what);
    } else if (entry instanceof LogEntry.CompactCommit merge) {
      id(merge.id(), what);
      keys(merge.inputs(), what);
      liveFiles(merge.outputs(), what);
    } else if (entry instanceof LogEntry.CompactAbort abort) {
      id(abort.id(), what);
    } else if (entry instanceof LogEntry.Expire expire) {
      keys(expire.files(), what);
    } else if (entry instanceof LogEntry.Purge purge) {
      keys(purge.files(), what);
    }
  }

  private static void checkpoint(LogEntry.Checkpoint checkpoint, String what) {
    if (checkpoint.maxEpoch() < checkpoint.epoch()) {
      throw new LogFormatException(
          what
              + " has epoch "
              + checkpoint.epoch()
              + " above the newest epoch it names, "
              + checkpoint.maxEpoch());
    }
    CommittedUnit last = checkpoint.lastCommit();
    if (last != null) {
      unit(last.id(), last.start(), last.end(), what);
    }
    liveFiles(checkpoint.liveFiles(), what);
    atLeast(checkpoint.generation(), 0, "generation", what);
    if (checkpoint.generationStart() != null) {
      atLeast(checkpoint.generationStart(), 0, "generationStart", what);
    }
    checkpoint.retired().forEach(file -> key(file.key(), what));
    if (checkpoint.compacting() != null) {
      values(checkpoint.compacting(), what);
    }
  }

  /** A unit's offsets are in order, and its id ends in them as compaction ids do. */
  private static void unit(String id, long start, long end, String what) {
    id(id, what);
    if (start < 0 || end < start) {
      throw new LogFormatException(
          what + " has unit " + id + " with offsets " + start + ".." + end + " out of order");
    }
    if (!id.endsWith(String.format("+%020d+%020d", start, end))) {
      throw new LogFormatException(
          what + " has unit " + id + " whose id does not name its offsets " + start + ".." + end);
    }
  }

  private static void liveFiles(Collection<LiveFile> files, String what) {
    for (LiveFile file : files) {
      key(file.key(), what);
      if (file.rows() < 0 || file.bytes() < 0) {
        throw new LogFormatException(
            what + " lists " + file.key() + " with a negative row or byte count");
      }
    }
  }

  private static void keys(Collection<String> keys, String what) {
    keys.forEach(key -> key(key, what));
  }

  private static void key(String key, String what) {
    if (key == null || key.isBlank()) {
      throw new LogFormatException(what + " lists a file without a key");
    }
  }

  private static void id(String id, String what) {
    if (id == null || id.isBlank()) {
      throw new LogFormatException(what + " has no id");
    }
  }

  private static void atLeast(long value, long min, String field, String what) {
    if (value < min) {
      throw new LogFormatException(what + " has " + field + " " + value + ", below " + min);
    }
  }
}
