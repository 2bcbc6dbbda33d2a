package io.skippr.connect.lake.partition;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The time range of a path the time partitioner wrote: its last {@code path.format} segments parsed
 * back to the bucket's start, plus {@code partition.duration.ms} (or one unit of the finest field
 * the format names), in the configured timezone. What retention expires by.
 */
public final class PathTimes {
  private final PathFormat format;
  private final ZoneId zone;
  private final long durationMs;

  private PathTimes(PathFormat format, ZoneId zone, long durationMs) {
    this.format = format;
    this.zone = zone;
    this.durationMs = durationMs;
  }

  /** For a time partitioner ({@code time} or {@code field+time}); empty for the others. */
  public static Optional<PathTimes> of(PartitioningConfig config) {
    return switch (config.kind()) {
      case TIME, FIELD_TIME ->
          Optional.of(
              new PathTimes(
                  PathFormat.compile(config.pathFormat(), config.locale()),
                  config.timezone(),
                  config.durationMs()));
      default -> Optional.empty();
    };
  }

  /**
   * When the path's time range ends (exclusive, epoch milliseconds); empty when its time segments
   * do not parse (week-based formats, or a path another partitioner wrote).
   */
  public OptionalLong endOf(String partitionPath) {
    List<String> segments = Arrays.asList(partitionPath.split("/"));
    int n = format.segmentCount();
    if (segments.size() < n) {
      return OptionalLong.empty();
    }
    Optional<PathFormat.Parsed> parsed =
        format.parse(segments.subList(segments.size() - n, segments.size()));
    if (parsed.isEmpty()) {
      return OptionalLong.empty();
    }
    ZonedDateTime start = ZonedDateTime.ofLocal(parsed.get().start(), zone, null);
    ZonedDateTime end =
        durationMs > 0
            ? start.plusNanos(durationMs * 1_000_000L)
            : start.plus(1, parsed.get().finest());
    return OptionalLong.of(end.toInstant().toEpochMilli());
  }
}
