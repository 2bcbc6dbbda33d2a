package io.skippr.connect.lake.maintenance;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** When and how the lake's small files are merged. */
public final class CompactionConfig {
  public static final String GROUP = "Compaction";

  public static final String ENABLED = "compaction.enabled";
  private static final String ENABLED_DOC =
      "Merge each task's small committed files, per table partition path and topic partition,"
          + " into files of about compaction.target.bytes, on a thread of its own beside the"
          + " writes. Readers that use the lake log see every record exactly once at all times;"
          + " readers that glob a table's *.parquet files at most once at all times (a merged"
          + " file enters the table only after its inputs left it), and exactly once when no"
          + " unit or merge is in flight.";

  public static final String TARGET_BYTES = "compaction.target.bytes";
  private static final String TARGET_BYTES_DOC =
      "The size merged files aim at. Files of at least 0.75 times this size are left as they"
          + " are.";

  public static final String MIN_FILES = "compaction.min.files";
  private static final String MIN_FILES_DOC =
      "How many small files (below 0.75 x compaction.target.bytes) of one partition path and"
          + " topic partition there must be before they are merged.";

  public static final String INTERVAL_MS = "compaction.interval.ms";
  private static final String INTERVAL_MS_DOC =
      "How often each task looks for files to merge, expires files past retention.ms and"
          + " deletes retired files.";

  public static final String GRACE_MS = "compaction.grace.ms";
  private static final String GRACE_MS_DOC =
      "How long retired files (the inputs of a merge, the files a replace_partition unit"
          + " replaced) are kept after they left their table, under"
          + " _skippr/retired/{table}/.../{name}.retired where no glob of *.parquet reaches them,"
          + " before they are deleted: to inspect or restore by hand. No reader sees them; a"
          + " reader that listed one just before it left fails on it and can read again.";

  /**
   * The settings.
   *
   * @param enabled compaction.enabled
   * @param targetBytes compaction.target.bytes
   * @param minFiles compaction.min.files
   * @param intervalMs compaction.interval.ms
   * @param graceMs compaction.grace.ms
   */
  public record Settings(
      boolean enabled, long targetBytes, int minFiles, long intervalMs, long graceMs) {
    /** Files below this size are merged. */
    public long smallBytes() {
      return targetBytes * 3 / 4;
    }
  }

  private CompactionConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            ENABLED,
            Type.BOOLEAN,
            true,
            Importance.MEDIUM,
            ENABLED_DOC,
            GROUP,
            0,
            Width.SHORT,
            "Compaction")
        .define(
            TARGET_BYTES,
            Type.LONG,
            128L << 20,
            Range.atLeast(1L << 20),
            Importance.MEDIUM,
            TARGET_BYTES_DOC,
            GROUP,
            1,
            Width.MEDIUM,
            "Target file size")
        .define(
            MIN_FILES,
            Type.INT,
            5,
            Range.atLeast(2),
            Importance.LOW,
            MIN_FILES_DOC,
            GROUP,
            2,
            Width.SHORT,
            "Files before a merge")
        .define(
            INTERVAL_MS,
            Type.LONG,
            60_000L,
            Range.atLeast(100),
            Importance.LOW,
            INTERVAL_MS_DOC,
            GROUP,
            3,
            Width.MEDIUM,
            "Interval")
        .define(
            GRACE_MS,
            Type.LONG,
            600_000L,
            Range.atLeast(0),
            Importance.LOW,
            GRACE_MS_DOC,
            GROUP,
            4,
            Width.MEDIUM,
            "Grace before deletion");
  }

  public static Settings from(AbstractConfig config) {
    return new Settings(
        config.getBoolean(ENABLED),
        config.getLong(TARGET_BYTES),
        config.getInt(MIN_FILES),
        config.getLong(INTERVAL_MS),
        config.getLong(GRACE_MS));
  }
}
