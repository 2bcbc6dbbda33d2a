package io.skippr.connect.sink.log;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.sink.storage.LakeStorage;
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
   * start on a new lake at once exactly one creates it (create-if-absent) and all read the same.
   *
   * @throws LogFormatException when the document is not one this connector can read
   */
  public static LakeIdentity establish(LakeStorage storage, LakeLayout layout, long nowMs)
      throws IOException {
    String key = layout.identityKey();
    byte[] created =
        JSON.writeValueAsBytes(
            new Document(LogCodec.BASE_VERSION, KIND, UUID.randomUUID().toString(), nowMs));
    storage.createIfAbsent(key, created);
    return read(storage, layout)
        .orElseThrow(() -> new NoSuchFileException(storage.location() + key));
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
    String where = storage.location() + key;
    JsonNode node;
    try {
      node = JSON.readTree(bytes);
    } catch (IOException e) {
      throw new LogFormatException("the lake identity " + where + " is not valid JSON", e);
    }
    if (!(node instanceof ObjectNode) || !node.path("version").canConvertToInt()) {
      throw new LogFormatException("the lake identity " + where + " has no log format version");
    }
    LogCodec.checkVersion(node.get("version").intValue(), "the lake identity " + where);
    Document document = JSON.treeToValue(node, Document.class);
    if (!KIND.equals(document.kind()) || document.id() == null || document.id().isBlank()) {
      throw new LogFormatException("the lake identity " + where + " names no lake id");
    }
    return Optional.of(new LakeIdentity(document.id(), storage.location(), document.createdAtMs()));
  }
}
