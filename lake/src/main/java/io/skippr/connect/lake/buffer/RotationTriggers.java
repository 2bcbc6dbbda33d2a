package io.skippr.connect.lake.buffer;

/** The rotation policy: which trigger, if any, says a TP's unit must be written now. */
public final class RotationTriggers {
  private final RotationConfig config;

  public RotationTriggers(RotationConfig config) {
    this.config = config;
  }

  /**
   * Checked before a record joins: the record-time trigger keeps a unit's timestamps within {@code
   * rotate.interval.ms}, so the record that would break it starts the next unit.
   *
   * @return the trigger's key, or null
   */
  public String beforeRecord(UnitBuffer unit, Long timestamp) {
    if (config.rotateIntervalMs() > 0
        && !unit.isEmpty()
        && unit.timeSpanWith(timestamp) >= config.rotateIntervalMs()) {
      return RotationConfig.ROTATE_INTERVAL_MS;
    }
    return null;
  }

  /** Checked after a record joined: the size triggers. */
  public String afterRecord(UnitBuffer unit) {
    if (config.flushSize() > 0 && unit.records() >= config.flushSize()) {
      return RotationConfig.FLUSH_SIZE;
    }
    if (config.flushBytes() > 0 && unit.bytes() >= config.flushBytes()) {
      return RotationConfig.FLUSH_BYTES;
    }
    return null;
  }

  /**
   * Checked on every put, with or without records: a unit is written at the first multiple of
   * {@code rotate.schedule.interval.ms} after it began.
   */
  public String onClock(UnitBuffer unit, long nowMs) {
    long interval = config.rotateScheduleIntervalMs();
    if (interval > 0 && !unit.isEmpty()) {
      long due = Math.floorDiv(unit.wallclockMs(), interval) * interval + interval;
      if (nowMs >= due) {
        return RotationConfig.ROTATE_SCHEDULE_INTERVAL_MS;
      }
    }
    return null;
  }
}
