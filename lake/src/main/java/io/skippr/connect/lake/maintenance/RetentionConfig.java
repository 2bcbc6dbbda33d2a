package io.skippr.connect.lake.maintenance;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/** How long time-partitioned tables keep their partition paths. */
public final class RetentionConfig {
  public static final String GROUP = "Retention";

  public static final String RETENTION_MS = "retention.ms";
  private static final String RETENTION_MS_DOC =
      "For time-partitioned tables (partitioner.class=time or field+time): a partition path whose whole time"
          + " range ends more than this long ago is expired: an expire entry in the TP's log, then"
          + " its files are deleted. -1 keeps everything. retention.ms.<table> sets it for one"
          + " table.";

  /** Prefix of the per-table override, {@code retention.ms.<table>}. */
  public static final String RETENTION_MS_TABLE_PREFIX = RETENTION_MS + ".";

  public static final String LATE_WRITE_POLICY = "retention.late.write.policy";
  private static final String LATE_WRITE_POLICY_DOC =
      "What happens to a row whose partition path is already past retention.ms: 'accept' lands"
          + " it and it expires at the next maintenance pass; 'reject' sends its record to the"
          + " dead letter queue (with the reason) before a unit is planned, or fails the task"
          + " when errors are not tolerated.";

  /** The late-write policies. */
  public enum LateWrites {
    ACCEPT,
    REJECT
  }

  /**
   * The settings.
   *
   * @param defaultMs retention.ms, -1 for none
   * @param perTable retention.ms.<table> overrides
   * @param lateWrites retention.late.write.policy
   */
  public record Settings(long defaultMs, Map<String, Long> perTable, LateWrites lateWrites) {
    public static final Settings NONE = new Settings(-1, Map.of(), LateWrites.ACCEPT);

    public Settings {
      perTable = Map.copyOf(perTable);
    }

    /** The table's retention, -1 for none. */
    public long of(String table) {
      return perTable.getOrDefault(table, defaultMs);
    }

    /** Whether some table has a retention. */
    public boolean any() {
      return defaultMs >= 0 || perTable.values().stream().anyMatch(ms -> ms >= 0);
    }
  }

  private RetentionConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            RETENTION_MS,
            Type.LONG,
            -1L,
            ConfigDef.Range.atLeast(-1),
            Importance.MEDIUM,
            RETENTION_MS_DOC,
            GROUP,
            0,
            Width.MEDIUM,
            "Retention")
        .define(
            LATE_WRITE_POLICY,
            Type.STRING,
            "accept",
            ConfigDef.CaseInsensitiveValidString.in("accept", "reject"),
            Importance.LOW,
            LATE_WRITE_POLICY_DOC,
            GROUP,
            1,
            Width.SHORT,
            "Late writes");
  }

  /**
   * @throws ConfigException when a {@code retention.ms.<table>} value is not a number of at least
   *     -1
   */
  public static Settings from(AbstractConfig config) {
    Map<String, Long> perTable = new TreeMap<>();
    config
        .originalsWithPrefix(RETENTION_MS_TABLE_PREFIX)
        .forEach(
            (table, value) -> {
              try {
                long ms = Long.parseLong(String.valueOf(value).trim());
                if (ms < -1) {
                  throw new NumberFormatException();
                }
                perTable.put(table, ms);
              } catch (NumberFormatException e) {
                throw new ConfigException(
                    RETENTION_MS_TABLE_PREFIX + table, value, "must be a number of at least -1");
              }
            });
    return new Settings(
        config.getLong(RETENTION_MS),
        perTable,
        LateWrites.valueOf(config.getString(LATE_WRITE_POLICY).toUpperCase(Locale.ROOT)));
  }
}
