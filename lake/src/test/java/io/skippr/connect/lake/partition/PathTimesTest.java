package io.skippr.connect.lake.partition;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class PathTimesTest {
  private static PathTimes times(String format, long durationMs, String zone) {
    return PathTimes.of(
            new PartitioningConfig(
                PartitioningConfig.Kind.TIME,
                List.of(),
                format,
                durationMs,
                PartitioningConfig.TimestampSource.RECORD,
                "timestamp",
                ZoneId.of(zone),
                Locale.ROOT))
        .orElseThrow();
  }

  private static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  @Test
  void aPathEndsWhereItsBucketEnds() {
    PathTimes hourly = times("'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH", 3_600_000L, "UTC");
    assertThat(hourly.endOf("year=2026/month=11/day=30/hour=23"))
        .hasValue(at("2026-12-01T00:00:00Z"));
    PathTimes daily = times("'dt'=YYYY-MM-dd", 0, "Europe/Berlin");
    assertThat(daily.endOf("dt=2026-03-29"))
        .as("no duration: one unit of the finest field, a local day of 23 hours")
        .hasValue(at("2026-03-29T22:00:00Z"));
    assertThat(daily.endOf("region=eu/dt=2026-03-29"))
        .as("field segments before the time ones")
        .hasValue(at("2026-03-29T22:00:00Z"));
  }

  @Test
  void pathsThatDoNotParseHaveNoEnd() {
    PathTimes daily = times("'dt'=YYYY-MM-dd", 86_400_000L, "UTC");
    assertThat(daily.endOf("dt=yesterday")).isEmpty();
    assertThat(times("xxxx-'w'ww", 0, "UTC").endOf("2026-w48")).as("week-based").isEmpty();
  }
}
