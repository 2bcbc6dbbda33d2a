package io.skippr.connect.lake.maintenance;

import io.skippr.connect.lake.convert.RecordRejectedException;
import io.skippr.connect.lake.partition.PathTimes;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * With {@code retention.late.write.policy=reject}: refuses a row whose partition path already lies
 * past its table's {@code retention.ms}, before a unit is planned; its record goes to the dead
 * letter queue with the reason. Rows the policy accepts land and expire at the next pass.
 */
public interface LateWrites {
  /** Accepts every row. */
  LateWrites ACCEPT = (table, path, nowMs) -> {};

  /**
   * @param nowMs the unit's wall clock
   * @throws RecordRejectedException when the path is past the table's retention
   */
  void check(String table, String path, long nowMs);

  /** The check the settings ask for. */
  static LateWrites of(RetentionConfig.Settings retention, PathTimes times) {
    if (retention.lateWrites() != RetentionConfig.LateWrites.REJECT || times == null) {
      return ACCEPT;
    }
    Map<String, OptionalLong> ends = new ConcurrentHashMap<>();
    return (table, path, nowMs) -> {
      long ms = retention.of(table);
      if (ms < 0) {
        return;
      }
      OptionalLong end = ends.computeIfAbsent(path, times::endOf);
      if (end.isPresent() && end.getAsLong() <= nowMs - ms) {
        throw new RecordRejectedException(
            "the row's partition path "
                + path
                + " ended "
                + (nowMs - end.getAsLong())
                + " ms ago, past "
                + RetentionConfig.RETENTION_MS
                + "="
                + ms
                + " of table "
                + table
                + " ("
                + RetentionConfig.LATE_WRITE_POLICY
                + "=reject)");
      }
    };
  }
}
