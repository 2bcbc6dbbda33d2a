package io.skippr.connect.lake.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write policy each table is kept under, recorded in the lake so readers need no connector
 * config: {@code _skippr/policy/{table}/{version:020d}.json}, one sealed document per policy the
 * table was written under, the newest applying. A writer records its policy before it commits a
 * unit of a table whose newest record differs; a version is created only if absent, so of two
 * writers recording at once exactly one wins and the other reads the winner again.
 */
public final class TablePolicyLog {
  private static final Logger LOG = LoggerFactory.getLogger(TablePolicyLog.class);
  private static final String KIND = "table-policy";

  /** The policies a reader knows. */
  private static final Set<String> POLICIES = Set.of("append", "merge_by_key", "replace_partition");

  private static final String MERGE_BY_KEY = "merge_by_key";

  /** Writers that lose this many races in a row give up: something rewrites the policy. */
  private static final int MAX_ATTEMPTS = 100;

  /**
   * A table's policy.
   *
   * @param writePolicy the {@code write.policy} name: {@code append}, {@code merge_by_key} or
   *     {@code replace_partition}
   * @param keyFields {@code merge.key.fields} under {@code merge_by_key}, empty for the record key
   *     (and for the other policies)
   */
  public record Policy(String writePolicy, List<String> keyFields) {
    public Policy {
      if (!POLICIES.contains(writePolicy)) {
        throw new IllegalArgumentException("unknown write policy " + writePolicy);
      }
      keyFields = writePolicy.equals(MERGE_BY_KEY) ? List.copyOf(keyFields) : List.of();
    }

    /** True under {@code merge_by_key}. */
    public boolean byKey() {
      return writePolicy.equals(MERGE_BY_KEY);
    }
  }

  /** A stored version of a table's policy. */
  public record Recorded(long version, Policy policy) {}

  private final LakeStorage storage;
  private final LakeLayout layout;

  public TablePolicyLog(LakeStorage storage, LakeLayout layout) {
    this.storage = storage;
    this.layout = layout;
  }

  /**
   * The table's newest recorded policy; empty for a table written before policies were recorded.
   *
   * @throws LogFormatException when the newest version is damaged or of a newer format
   * @throws ConnectException when storage fails
   */
  public Optional<Recorded> current(String table) {
    try {
      Optional<String> newest = LakeLayout.newestVersion(storage.list(layout.policyPrefix(table)));
      if (newest.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new Recorded(LakeLayout.seqOf(newest.get()), read(newest.get())));
    } catch (IOException e) {
      throw TableVersionFiles.failed(storage, "read the write policy of table " + table, e);
    }
  }

  /**
   * The newest recorded policy of every table that has one, from one listing.
   *
   * @throws LogFormatException when a newest version is damaged or of a newer format
   * @throws ConnectException when storage fails
   */
  public Map<String, Recorded> currentAll() {
    try {
      Map<String, String> newest = new TreeMap<>();
      String prefix = layout.policiesPrefix();
      for (String key : storage.list(prefix)) {
        int slash = key.lastIndexOf('/');
        if (LakeLayout.seqOf(key) > 0 && slash > prefix.length()) {
          newest.merge(
              key.substring(prefix.length(), slash), key, (a, b) -> a.compareTo(b) > 0 ? a : b);
        }
      }
      Map<String, Recorded> recorded = new TreeMap<>();
      for (Map.Entry<String, String> table : newest.entrySet()) {
        String key = table.getValue();
        recorded.put(table.getKey(), new Recorded(LakeLayout.seqOf(key), read(key)));
      }
      return recorded;
    } catch (IOException e) {
      throw TableVersionFiles.failed(storage, "read the write policies of the lake's tables", e);
    }
  }

  /**
   * Records the policy as the table's newest unless it already is; idempotent.
   *
   * @return the newest version, holding the policy
   * @throws LogFormatException when the newest version is damaged or of a newer format
   */
  public Recorded record(String table, Policy policy) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<Recorded> newest = current(table);
      if (newest.isPresent() && newest.get().policy().equals(policy)) {
        return newest.get();
      }
      long version = newest.map(Recorded::version).orElse(0L) + 1;
      try {
        if (storage.createIfAbsent(
            layout.policyKey(table, version), encode(table, version, policy))) {
          LOG.info(
              "Table {} is now written under {} (policy version {})",
              table,
              describe(policy),
              version);
          return new Recorded(version, policy);
        }
      } catch (IOException e) {
        throw TableVersionFiles.failed(
            storage, "store version " + version + " of the write policy of table " + table, e);
      }
    }
    throw new ConnectException(
        "Cannot record the write policy of table "
            + table
            + " in "
            + storage.location()
            + ": other writers record other policies at the same time (do two connectors with"
            + " different write.policy write it?)");
  }

  /**
   * Reads one stored version of a table's policy.
   *
   * @param key the version's key ({@code _skippr/policy/{table}/{version:020d}.json})
   * @throws LogFormatException when the document is of a newer format, damaged (not valid JSON,
   *     fails its checksum, holds no known policy), or belongs to another table or version
   */
  public Policy read(String key) throws IOException {
    String what = "table policy " + storage.location() + key;
    try {
      SealedJson.Opened opened = SealedJson.open(storage.read(key), what);
      ObjectNode node = opened.node();
      JsonNode version = node.get("version");
      if (version == null || !version.isIntegralNumber() || !version.canConvertToInt()) {
        throw new LogFormatException(what + " has no log format version");
      }
      LogCodec.checkVersion(version.intValue(), what);
      if (!opened.sealed()) {
        // every version that writes policies seals them
        throw new LogFormatException(what + " has no checksum: it was edited");
      }
      JsonNode policy = node.get("write_policy");
      if (!KIND.equals(node.path("kind").asText())
          || policy == null
          || !policy.isTextual()
          || !POLICIES.contains(policy.asText())) {
        throw new LogFormatException(what + " holds no write policy this version knows");
      }
      TableVersionFiles.belongsHere(node, key, what, "policy_version", true);
      return new Policy(policy.asText(), keyFields(node, policy.asText(), what));
    } catch (LogFormatException e) {
      throw e.isNewerFormat() ? e : new LogFormatException(e.getMessage() + WAY_OUT, e);
    }
  }

  private static final String WAY_OUT =
      ". The table's records are not written, nor read by skippr sql, until it is restored from a"
          + " backup or an earlier version of the object (see \"A damaged lake\" in"
          + " docs/lake-format.md)";

  private static List<String> keyFields(ObjectNode node, String policy, String what) {
    JsonNode fields = node.get("merge_key_fields");
    if (!policy.equals(MERGE_BY_KEY)) {
      if (fields != null) {
        throw new LogFormatException(what + " names merge key fields for policy " + policy);
      }
      return List.of();
    }
    if (!(fields instanceof ArrayNode array)) {
      throw new LogFormatException(what + " has no merge_key_fields list");
    }
    List<String> names = new ArrayList<>();
    for (JsonNode field : array) {
      if (!field.isTextual() || field.asText().isEmpty() || names.contains(field.asText())) {
        throw new LogFormatException(what + " has a merge key field that is no field name");
      }
      names.add(field.asText());
    }
    return names;
  }

  /** A policy names its table and version; one copied to another place is refused. */
  private static byte[] encode(String table, long version, Policy policy) {
    ObjectNode node = SealedJson.MAPPER.createObjectNode();
    node.put("version", LogCodec.BASE_VERSION);
    node.put("kind", KIND);
    node.put("table", table);
    node.put("policy_version", version);
    node.put("write_policy", policy.writePolicy());
    if (policy.byKey()) {
      ArrayNode fields = node.putArray("merge_key_fields");
      policy.keyFields().forEach(fields::add);
    }
    return SealedJson.seal(node);
  }

  /** {@code append}, {@code merge_by_key(id)}, {@code merge_by_key(record key)}. */
  public static String describe(Policy policy) {
    if (!policy.byKey()) {
      return policy.writePolicy();
    }
    return MERGE_BY_KEY
        + "("
        + (policy.keyFields().isEmpty() ? "record key" : String.join(",", policy.keyFields()))
        + ")";
  }
}
