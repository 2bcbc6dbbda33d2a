package io.skippr.connect.lake.buffer;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** When a TP's buffered records become a compaction unit, and how much a task may buffer. */
public final class RotationConfig {
  public static final String GROUP = "Rotation";

  public static final String FLUSH_SIZE = "flush.size";
  public static final String FLUSH_BYTES = "flush.bytes";
  public static final String ROTATE_INTERVAL_MS = "rotate.interval.ms";
  public static final String ROTATE_SCHEDULE_INTERVAL_MS = "rotate.schedule.interval.ms";
  public static final String BUFFER_MAX_BYTES = "buffer.max.bytes";

  public static final long DEFAULT_FLUSH_SIZE = 100_000;
  public static final long DEFAULT_FLUSH_BYTES = 64L << 20;
  public static final long DEFAULT_BUFFER_MAX_BYTES = 256L << 20;
  public static final long MIN_BUFFER_MAX_BYTES = 1L << 10;

  private final long flushSize;
  private final long flushBytes;
  private final long rotateIntervalMs;
  private final long rotateScheduleIntervalMs;
  private final long bufferMaxBytes;

  /**
   * @param flushSize records per unit, 0 for no limit
   * @param flushBytes buffered bytes per unit, 0 for no limit
   * @param rotateIntervalMs largest record-time span of a unit, -1 for none
   * @param rotateScheduleIntervalMs wall-clock period units are cut at, -1 for none
   * @param bufferMaxBytes bytes a task may buffer across all its TPs
   */
  public RotationConfig(
      long flushSize,
      long flushBytes,
      long rotateIntervalMs,
      long rotateScheduleIntervalMs,
      long bufferMaxBytes) {
    this.flushSize = flushSize;
    this.flushBytes = flushBytes;
    this.rotateIntervalMs = rotateIntervalMs;
    this.rotateScheduleIntervalMs = rotateScheduleIntervalMs;
    this.bufferMaxBytes = bufferMaxBytes;
  }

  public static ConfigDef define(ConfigDef def) {
    int order = 0;
    return def.define(
            FLUSH_SIZE,
            Type.LONG,
            DEFAULT_FLUSH_SIZE,
            Range.atLeast(0),
            Importance.HIGH,
            "Records of one topic partition per compaction unit: when this many are buffered they"
                + " are written (one file per table partition path). Records that are skipped or"
                + " sent to the dead letter queue count too. 0 turns this trigger off.",
            GROUP,
            ++order,
            Width.SHORT,
            "Flush size")
        .define(
            FLUSH_BYTES,
            Type.LONG,
            DEFAULT_FLUSH_BYTES,
            Range.atLeast(0),
            Importance.MEDIUM,
            "Estimated in-memory bytes of one topic partition's buffered rows that trigger"
                + " writing them (rows compacted under memory pressure count their compact size)."
                + " Must not exceed "
                + BUFFER_MAX_BYTES
                + ". 0 turns it off.",
            GROUP,
            ++order,
            Width.SHORT,
            "Flush bytes")
        .define(
            ROTATE_INTERVAL_MS,
            Type.LONG,
            -1L,
            Range.atLeast(-1),
            Importance.MEDIUM,
            "Largest span of record timestamps (Kafka record time) in one unit: a record that"
                + " would widen the span to this many milliseconds or more starts a new unit."
                + " -1 turns it off.",
            GROUP,
            ++order,
            Width.SHORT,
            "Rotate interval (record time)")
        .define(
            ROTATE_SCHEDULE_INTERVAL_MS,
            Type.LONG,
            -1L,
            Range.atLeast(-1),
            Importance.MEDIUM,
            "Wall-clock period: a unit is written at the first multiple of this many"
                + " milliseconds (since the epoch) after it opened, even when no more records"
                + " arrive. -1 turns it off.",
            GROUP,
            ++order,
            Width.SHORT,
            "Rotate schedule interval")
        .define(
            BUFFER_MAX_BYTES,
            Type.LONG,
            DEFAULT_BUFFER_MAX_BYTES,
            Range.atLeast(MIN_BUFFER_MAX_BYTES),
            Importance.MEDIUM,
            "Estimated bytes one task may buffer across all its topic partitions and partition"
                + " paths. Above it the task first compacts the rows it holds as objects into bytes"
                + " (a third to a quarter of their size for typical rows, so units and files get"
                + " larger), then writes the partition holding the most, and pauses consuming while"
                + " it cannot get under.",
            GROUP,
            ++order,
            Width.SHORT,
            "Buffer max bytes");
  }

  public static RotationConfig from(AbstractConfig c) {
    return new RotationConfig(
        c.getLong(FLUSH_SIZE),
        c.getLong(FLUSH_BYTES),
        c.getLong(ROTATE_INTERVAL_MS),
        c.getLong(ROTATE_SCHEDULE_INTERVAL_MS),
        c.getLong(BUFFER_MAX_BYTES));
  }

  public long flushSize() {
    return flushSize;
  }

  public long flushBytes() {
    return flushBytes;
  }

  public long rotateIntervalMs() {
    return rotateIntervalMs;
  }

  public long rotateScheduleIntervalMs() {
    return rotateScheduleIntervalMs;
  }

  public long bufferMaxBytes() {
    return bufferMaxBytes;
  }

  /** True when at least one trigger other than memory pressure is on. */
  public boolean hasTrigger() {
    return flushSize > 0 || flushBytes > 0 || rotateIntervalMs > 0 || rotateScheduleIntervalMs > 0;
  }
}
