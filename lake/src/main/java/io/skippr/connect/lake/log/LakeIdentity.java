package io.skippr.connect.lake.log;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who a lake is: a random id given once, when the first writer meets an empty {@code topics.dir},
 * and kept in {@code _skippr/lake.json} under the log's format versioning. State that lives outside
 * the lake (the state store's mirrored progress) records this id, so a row written for another
 * lake, or for an earlier lake at the same place that was deleted, is never taken for this one's.
 *
 * @param id a random UUID
 * @param location where the lake lives, for messages (a path or URI, never credentials)
 * @param createdAtMs wall clock of the creation
 */
public record LakeIdentity(String id, String location, long createdAtMs) {
  private static final Logger LOG = LoggerFactory.getLogger(LakeIdentity.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** The document as stored; {@code version} follows the log's format versions. */
  private record Document(
      @JsonProperty("version") int version,
      @JsonProperty("kind") String kind,
      @JsonProperty("id") String id,
      @JsonProperty("created_at_ms") long createdAtMs) {}

  private static final String KIND = "lake";

  /**
   * Reads the lake's identity, creating it when the lake has none yet. Of several writers that
   * start on a new lake at once exactly one creates it (create-if-absent) and all read the same. A
   * writer creates the identity before its first log entry, so a lake with TP logs but without an
   * identity lost it: it is refused, never given a new one.
   *
   * @throws LogFormatException when the document is not one this connector can read, or the lake
   *     has TP logs but no identity
   */
  public static LakeIdentity establish(LakeStorage storage, LakeLayout layout, long nowMs)
      throws IOException {
    Optional<LakeIdentity> known = read(storage, layout);
    if (known.isPresent()) {
      return known.get();
    }
    Optional<String> logged = anyLogEntry(storage, layout);
    if (logged.isPresent()) {
      // Read again: a writer that started meanwhile created it before its first entry.
      return read(storage, layout).orElseThrow(() -> missing(storage, layout, logged.get()));
    }
    String key = layout.identityKey();
    byte[] created =
        JSON.writeValueAsBytes(
            new Document(LogCodec.BASE_VERSION, KIND, UUID.randomUUID().toString(), nowMs));
    storage.createIfAbsent(key, created);
    return read(storage, layout)
        .orElseThrow(() -> new NoSuchFileException(storage.location() + key));
  }

  /**
   * Reads the identity of a lake that must have one: a program that changes TP logs but never
   * starts a lake (offset changes, offline maintenance).
   *
   * @throws LogFormatException when the lake has no identity, or one this connector cannot read
   */
  public static LakeIdentity require(LakeStorage storage, LakeLayout layout) throws IOException {
    Optional<LakeIdentity> known = read(storage, layout);
    if (known.isPresent()) {
      return known.get();
    }
    Optional<String> logged = anyLogEntry(storage, layout);
    if (logged.isPresent()) {
      throw missing(storage, layout, logged.get());
    }
    throw new LogFormatException(
        "The lake at " + storage.location() + " has no identity: nothing was landed there yet");
  }

  /** A key of some TP log entry of the lake, if it has any. */
  private static Optional<String> anyLogEntry(LakeStorage storage, LakeLayout layout)
      throws IOException {
    String prefix = layout.logsPrefix();
    return storage.list(prefix).stream().filter(key -> LakeLayout.seqOf(key) >= 0).findFirst();
  }

  private static LogFormatException missing(LakeStorage storage, LakeLayout layout, String entry) {
    String named = null;
    try {
      named = LogCodec.read(storage.read(entry), storage.location() + entry).lake();
    } catch (IOException | LogFormatException e) {
      LOG.debug("Cannot tell which lake {} names: {}", entry, e.toString());
    }
    String document = "{\"version\":1,\"kind\":\"lake\",\"id\":\"%s\",\"created_at_ms\":0}";
    return new LogFormatException(
        "The lake at "
            + storage.location()
            + " has TP logs (e.g. "
            + storage.location()
            + entry
            + ") but no identity: "
            + storage.location()
            + layout.identityKey()
            + " is missing. It was deleted, or not copied with the lake; a new identity would"
            + " make the progress mirrored in the state store and the Iceberg registrations of"
            + " this lake look like another lake's. Nothing was changed. "
            + (named != null
                ? "The logs were written for lake "
                    + named
                    + ": restore lake.json from a backup, or write it anew as "
                    + String.format(document, named)
                : "The logs name no lake (older writers did not): restore lake.json from a"
                    + " backup, or, if there is none, write one with a new id, "
                    + String.format(document, "<a new UUID>"))
            + " (see \"A damaged lake\" in docs/lake-format.md).");
  }

  /**
   * {@link #establish} for a writer that starts: logs the identity, and a storage failure is a
   * {@link ConnectException} naming the lake.
   */
  public static LakeIdentity establishForWriter(
      LakeStorage storage, LakeLayout layout, long nowMs) {
    try {
      LakeIdentity identity = establish(storage, layout, nowMs);
      LOG.info("Writing to lake {} at {}", identity.id(), identity.location());
      return identity;
    } catch (IOException e) {
      throw new ConnectException(
          "Cannot read or create the lake's identity in " + storage.location(), e);
    }
  }

  /**
   * Reads the lake's identity without creating one; empty when the lake has none.
   *
   * @throws LogFormatException when the document is not one this connector can read
   */
  public static Optional<LakeIdentity> read(LakeStorage storage, LakeLayout layout)
      throws IOException {
    String key = layout.identityKey();
    byte[] bytes;
    try {
      bytes = storage.read(key);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    String what = "the lake identity " + storage.location() + key;
    String wayOut =
        ". Nothing was changed: restore it from a backup (see \"A damaged lake\" in"
            + " docs/lake-format.md)";
    ObjectNode node;
    Document document;
    try {
      node = SealedJson.open(bytes, what).node();
      if (!node.path("version").isIntegralNumber() || !node.get("version").canConvertToInt()) {
        throw new LogFormatException(what + " has no log format version");
      }
      LogCodec.checkVersion(node.get("version").intValue(), what);
      document = JSON.treeToValue(node, Document.class);
      if (!KIND.equals(document.kind()) || document.id() == null || document.id().isBlank()) {
        throw new LogFormatException(what + " names no lake id");
      }
    } catch (LogFormatException e) {
      throw e.isNewerFormat() ? e : new LogFormatException(e.getMessage() + wayOut, e);
    } catch (IOException e) {
      throw new LogFormatException(
          what + " cannot be read: " + SealedJson.firstLine(e) + wayOut, e);
    }
    return Optional.of(new LakeIdentity(document.id(), storage.location(), document.createdAtMs()));
  }
}
