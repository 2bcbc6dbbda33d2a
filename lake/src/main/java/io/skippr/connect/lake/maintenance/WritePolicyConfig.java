package io.skippr.connect.lake.maintenance;

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
          + " last record of a key wins, in (topic partition, offset) order, and a tombstone"
          + " (whatever behavior.on.null.values says: under merge_by_key a tombstone is always a"
          + " delete row with __deleted=true) or a delete (__deleted=true, or op=d in a Debezium"
          + " envelope) removes the key; units are appended as they come and compaction writes"
          + " the current state of each partition path: the last row of each live key, no row of"
          + " a deleted one (see merge.key.fields). Every row has __deleted (unless the record"
          + " brings its own) and value columns are optional. A key's partition path must not"
          + " change, and a key must keep to one topic partition (Kafka's default partitioner"
          + " does). "
          + "'replace_partition': the newest unit that writes a partition path replaces every"
          + " older file of that path of its topic partition when it commits, for sources that"
          + " resend whole partitions.";

  public static final String MERGE_KEY_FIELDS = "merge.key.fields";
  private static final String MERGE_KEY_FIELDS_DOC =
      "With write.policy=merge_by_key: the top-level value fields that form the key. Empty: the"
          + " record key, which needs include.key=true (it is kept as column __key). A tombstone"
          + " takes these fields from its record key (a struct key's fields of the same names, or"
          + " the key itself for one field); one whose key lacks them is rejected.";

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
   */
  public record Settings(Policy policy, List<String> keyFields) {
    public static final Settings APPEND = new Settings(Policy.APPEND, List.of());

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
            "Merge key fields");
  }

  public static Settings from(AbstractConfig config) {
    return new Settings(
        Policy.valueOf(config.getString(WRITE_POLICY).toUpperCase(Locale.ROOT)),
        config.getList(MERGE_KEY_FIELDS).stream()
            .map(String::trim)
            .filter(f -> !f.isEmpty())
            .toList());
  }
}
