package io.skippr.connect.sink.maintenance;

import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** How a table's rows are kept: appended, merged by key, or replaced per partition path. */
public final class WritePolicyConfig {
  public static final String GROUP = "Write policy";

  public static final String WRITE_POLICY = "write.policy";
  private static final String WRITE_POLICY_DOC =
      "'append': every record is a row. 'merge_by_key': a table of the current state per key: the"
          + " last record of a key wins, in (topic partition, offset) order, and a tombstone or a"
          + " delete (__deleted=true, or op=d in a Debezium envelope) removes the key; units are"
          + " appended as they come and compaction writes the current state of each partition"
          + " path (see merge.key.fields). A key's partition path must not change, and a key"
          + " must keep to one topic partition (Kafka's default partitioner does). "
          + "'replace_partition': the newest unit that writes a partition path replaces every"
          + " older file of that path of its topic partition when it commits, for sources that"
          + " resend whole partitions.";

  public static final String MERGE_KEY_FIELDS = "merge.key.fields";
  private static final String MERGE_KEY_FIELDS_DOC =
      "With write.policy=merge_by_key: the top-level value fields that form the key. Empty: the"
          + " record key, which needs include.key=true (it is kept as column __key).";

  public static final String MERGE_DELETE_RETENTION_MS = "merge.delete.retention.ms";
  private static final String MERGE_DELETE_RETENTION_MS_DOC =
      "With write.policy=merge_by_key: how long compaction keeps a deleted key's last row (the"
          + " delete marker) in the current state, counted from when its unit committed, so"
          + " readers that follow changes see the delete. 0 drops markers at the first merge.";

  /** The policies. */
  public enum Policy {
    APPEND,
    MERGE_BY_KEY,
    REPLACE_PARTITION;

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The settings.
   *
   * @param policy write.policy
   * @param keyFields merge.key.fields; empty for the record key
   * @param deleteRetentionMs merge.delete.retention.ms
   */
  public record Settings(Policy policy, List<String> keyFields, long deleteRetentionMs) {
    public static final Settings APPEND = new Settings(Policy.APPEND, List.of(), 0);

    public Settings {
      keyFields = List.copyOf(keyFields);
    }
  }

  private WritePolicyConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            WRITE_POLICY,
            Type.STRING,
            Policy.APPEND.configName(),
            ConfigDef.CaseInsensitiveValidString.in("append", "merge_by_key", "replace_partition"),
            Importance.MEDIUM,
            WRITE_POLICY_DOC,
            GROUP,
            0,
            Width.SHORT,
            "Write policy")
        .define(
            MERGE_KEY_FIELDS,
            Type.LIST,
            "",
            Importance.MEDIUM,
            MERGE_KEY_FIELDS_DOC,
            GROUP,
            1,
            Width.MEDIUM,
            "Merge key fields")
        .define(
            MERGE_DELETE_RETENTION_MS,
            Type.LONG,
            86_400_000L,
            ConfigDef.Range.atLeast(0),
            Importance.LOW,
            MERGE_DELETE_RETENTION_MS_DOC,
            GROUP,
            2,
            Width.MEDIUM,
            "Delete marker retention");
  }

  public static Settings from(AbstractConfig config) {
    return new Settings(
        Policy.valueOf(config.getString(WRITE_POLICY).toUpperCase(Locale.ROOT)),
        config.getList(MERGE_KEY_FIELDS).stream()
            .map(String::trim)
            .filter(f -> !f.isEmpty())
            .toList(),
        config.getLong(MERGE_DELETE_RETENTION_MS));
  }
}
