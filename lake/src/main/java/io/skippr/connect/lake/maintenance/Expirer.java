package io.skippr.connect.lake.maintenance;

import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.partition.PathTimes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Which live files retention expires: those of partition paths whose whole time range ended more
 * than their table's {@code retention.ms} ago. A path whose time does not parse is kept.
 */
final class Expirer {
  static final Expirer NONE = new Expirer(null, RetentionConfig.Settings.NONE, null);

  private final LakeLayout layout;
  private final RetentionConfig.Settings retention;
  private final PathTimes times;
  private final Map<String, OptionalLong> ends = new HashMap<>();

  Expirer(LakeLayout layout, RetentionConfig.Settings retention, PathTimes times) {
    this.layout = layout;
    this.retention = retention;
    this.times = times;
  }

  List<String> expired(Map<String, LiveFile> live, long nowMs) {
    List<String> expired = new ArrayList<>();
    if (times == null || !retention.any()) {
      return expired;
    }
    for (String key : live.keySet()) {
      FileId id = FileId.parse(layout, key);
      if (id == null) {
        continue;
      }
      long ms = retention.of(id.table());
      if (ms < 0) {
        continue;
      }
      OptionalLong end = ends.computeIfAbsent(id.partitionPath(), times::endOf);
      if (end.isPresent() && end.getAsLong() <= nowMs - ms) {
        expired.add(key);
      }
    }
    expired.sort(null);
    return expired;
  }
}
