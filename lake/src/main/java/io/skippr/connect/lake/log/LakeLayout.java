package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.StorageKeys;
import java.util.List;
import java.util.Optional;

/**
 * Where things live in the lake, relative to the storage root: a {@link
 * io.skippr.connect.lake.storage.LakeStorage} is rooted at {@code topics.dir}, so every key below
 * starts at a table or at {@code _skippr/}.
 *
 * <ul>
 *   <li>TP log entries: {@code {topics.dir}/_skippr/log/{topic}/{partition}/{seq:020d}.json}
 *   <li>data files: {@code {topics.dir}/{table}/{partition path}/{compaction id}.{extension}}
 *   <li>compaction id: see {@link CompactionId}
 *   <li>the lake's identity: {@code {topics.dir}/_skippr/lake.json}
 *   <li>a schemaless table's shared schema: {@code
 *       {topics.dir}/_skippr/schema/{table}/{version:020d}.json}
 *   <li>the write policy each table is kept under, one document per change: {@code
 *       {topics.dir}/_skippr/policy/{table}/{version:020d}.json}
 *   <li>a data file written but not yet in its table (a merge's output, a unit that replaces
 *       files), out of every glob's reach: {@code {topics.dir}/_skippr/staged/{file key below
 *       topics.dir}.staged}
 *   <li>a retired data file waiting out {@code compaction.grace.ms}, out of every glob's reach:
 *       {@code {topics.dir}/_skippr/retired/{file key below topics.dir}.retired}
 * </ul>
 */
public final class LakeLayout {
  /** Reserved directory under {@code topics.dir}; no table may use this name. */
  public static final String SYSTEM_DIR = "_skippr";

  private static final String ENTRY_SUFFIX = ".json";
  private static final String STAGED = "staged";
  private static final String RETIRED = "retired";
  private static final int SEQ_DIGITS = 20;

  /** Prefix of every TP log of the lake, ending in {@code /}. */
  public String logsPrefix() {
    return StorageKeys.join(SYSTEM_DIR, "log") + "/";
  }

  /** Prefix of every entry of one TP log, ending in {@code /}. */
  public String logPrefix(String topic, int partition) {
    return logsPrefix() + topic + "/" + partition + "/";
  }

  public String entryKey(String topic, int partition, long seq) {
    return logPrefix(topic, partition) + String.format("%0" + SEQ_DIGITS + "d", seq) + ENTRY_SUFFIX;
  }

  /** The sequence number of a log entry key, or -1 when the key is not a log entry. */
  public static long seqOf(String key) {
    String name = StorageKeys.baseName(key);
    if (name.length() != SEQ_DIGITS + ENTRY_SUFFIX.length() || !name.endsWith(ENTRY_SUFFIX)) {
      return -1;
    }
    for (int i = 0; i < SEQ_DIGITS; i++) {
      if (!Character.isDigit(name.charAt(i))) {
        return -1;
      }
    }
    return Long.parseLong(name.substring(0, SEQ_DIGITS));
  }

  /**
   * The newest numbered document among sorted keys (a table's schema or policy versions): the last
   * key with a version above 0; empty when none has one.
   */
  public static Optional<String> newestVersion(List<String> sortedKeys) {
    for (int i = sortedKeys.size() - 1; i >= 0; i--) {
      if (seqOf(sortedKeys.get(i)) > 0) {
        return Optional.of(sortedKeys.get(i));
      }
    }
    return Optional.empty();
  }

  /** Prefix of the shared schemas of every schemaless table, ending in {@code /}. */
  public String schemasPrefix() {
    return StorageKeys.join(SYSTEM_DIR, "schema") + "/";
  }

  /** Prefix of the versions of a table's shared schemaless schema, ending in {@code /}. */
  public String schemaPrefix(String table) {
    return StorageKeys.join(SYSTEM_DIR, "schema", table) + "/";
  }

  /** The key of one version of a table's shared schemaless schema. */
  public String schemaKey(String table, long version) {
    return schemaPrefix(table) + String.format("%0" + SEQ_DIGITS + "d", version) + ENTRY_SUFFIX;
  }

  /** Prefix of the recorded write policies of every table, ending in {@code /}. */
  public String policiesPrefix() {
    return StorageKeys.join(SYSTEM_DIR, "policy") + "/";
  }

  /** Prefix of the versions of a table's recorded write policy, ending in {@code /}. */
  public String policyPrefix(String table) {
    return StorageKeys.join(SYSTEM_DIR, "policy", table) + "/";
  }

  /** The key of one version of a table's recorded write policy. */
  public String policyKey(String table, long version) {
    return policyPrefix(table) + String.format("%0" + SEQ_DIGITS + "d", version) + ENTRY_SUFFIX;
  }

  /** The key of the lake's identity document. */
  public String identityKey() {
    return StorageKeys.join(SYSTEM_DIR, "lake.json");
  }

  /** The compaction id of a unit of generation 0 ({@link CompactionId}). */
  public static String compactionId(String topic, int partition, long start, long end) {
    return compactionId(topic, partition, 0, start, end);
  }

  /** The compaction id of a unit ({@link CompactionId}). */
  public static String compactionId(
      String topic, int partition, long generation, long start, long end) {
    return CompactionId.unit(topic, partition, generation, start, end).toString();
  }

  /** The key of the file a unit writes for one table partition path. */
  public String fileKey(String table, String partitionPath, String compactionId, String extension) {
    if (table.equals(SYSTEM_DIR)) {
      throw new IllegalArgumentException("table name '" + SYSTEM_DIR + "' is reserved");
    }
    return StorageKeys.check(
        StorageKeys.join(table, partitionPath, compactionId + "." + extension));
  }

  /** Prefix of every file of a table, ending in {@code /}. */
  public String tablePrefix(String table) {
    return StorageKeys.join(table) + "/";
  }

  /** Where a data file is written before it enters its table. */
  public String stagedKey(String fileKey) {
    return aside(STAGED, fileKey);
  }

  /** Where a retired data file waits out its grace. */
  public String retiredKey(String fileKey) {
    return aside(RETIRED, fileKey);
  }

  /** Prefix of the staged files of a table, ending in {@code /}. */
  public String stagedPrefix(String table) {
    return StorageKeys.join(SYSTEM_DIR, STAGED, table) + "/";
  }

  /** The data file a staged key stands for, or null when the key is not a staged file's. */
  public String fileKeyOfStaged(String stagedKey) {
    String prefix = StorageKeys.join(SYSTEM_DIR, STAGED) + "/";
    String suffix = "." + STAGED;
    if (!stagedKey.startsWith(prefix) || !stagedKey.endsWith(suffix)) {
      return null;
    }
    return stagedKey.substring(prefix.length(), stagedKey.length() - suffix.length());
  }

  /** {@code _skippr/{area}/{file key}.{area}}: no glob's match. */
  private String aside(String area, String fileKey) {
    return StorageKeys.join(SYSTEM_DIR, area, fileKey) + "." + area;
  }

  /** The table a file key belongs to (its first segment). */
  public String tableOf(String fileKey) {
    int slash = fileKey.indexOf('/');
    return slash < 0 ? fileKey : fileKey.substring(0, slash);
  }
}
