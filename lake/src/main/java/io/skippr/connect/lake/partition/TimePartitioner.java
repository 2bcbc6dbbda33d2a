package io.skippr.connect.lake.partition;

import io.skippr.connect.lake.convert.RecordRejectedException;
import io.skippr.connect.lake.partition.PartitioningConfig.TimestampSource;
import io.skippr.connect.schema.TemporalValues;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Formats a timestamp with {@code path.format} after flooring it to {@code partition.duration.ms}
 * in the configured timezone. Flooring works on local wall-clock time (like Confluent's
 * TimeBasedPartitioner), so daily partitions start at local midnight, and the two passes through a
 * repeated hour when clocks go back share one directory.
 */
final class TimePartitioner implements Partitioner {
  private final PathFormat format;
  private final long durationMs;
  private final TimestampSource source;
  private final String timestampField;
  private final ZoneRules rules;

  /** The last rendered bucket: most records of a unit fall into the same one. */
  private Rendered last = new Rendered(Long.MIN_VALUE, ZoneOffset.UTC, "");

  private record Rendered(long localBucketMs, ZoneOffset offset, String path) {}

  TimePartitioner(PartitioningConfig config) {
    this.format = PathFormat.compile(config.pathFormat(), config.locale());
    this.durationMs = config.durationMs();
    this.source = config.timestampSource();
    this.timestampField = config.timestampField();
    ZoneId zone = config.timezone();
    this.rules = zone.getRules();
  }

  @Override
  public String partitionPath(SinkRecord record, Struct row, long unitWallclockMs) {
    long utcMs = timestamp(record, row, unitWallclockMs);
    ZoneOffset offset = rules.getOffset(Instant.ofEpochMilli(utcMs));
    long localMs = utcMs + offset.getTotalSeconds() * 1000L;
    long bucketMs = durationMs > 0 ? Math.floorDiv(localMs, durationMs) * durationMs : localMs;
    Rendered cached = last;
    if (cached.localBucketMs() == bucketMs && cached.offset().equals(offset)) {
      return cached.path();
    }
    LocalDateTime local =
        LocalDateTime.ofEpochSecond(
            Math.floorDiv(bucketMs, 1000L),
            (int) Math.floorMod(bucketMs, 1000L) * 1_000_000,
            ZoneOffset.UTC);
    String path = format.render(local.atOffset(offset));
    last = new Rendered(bucketMs, offset, path);
    return path;
  }

  private long timestamp(SinkRecord record, Struct row, long unitWallclockMs) {
    return switch (source) {
      case WALLCLOCK -> unitWallclockMs;
      case RECORD -> {
        Long ts = record.timestamp();
        if (ts == null) {
          throw new RecordRejectedException(
              "record has no timestamp, which timestamp.extractor=Record needs for the partition"
                  + " path");
        }
        yield ts;
      }
      case RECORD_FIELD -> fieldTimestamp(row);
    };
  }

  private long fieldTimestamp(Struct row) {
    Object value = RowFields.find(row, timestampField, "timestamp field").value();
    if (value == null) {
      throw new RecordRejectedException(
          "timestamp field '" + timestampField + "' is null; the partition path needs it");
    }
    if (value instanceof java.util.Date date) {
      return date.getTime();
    }
    if (value instanceof Long || value instanceof Integer) {
      return ((Number) value).longValue();
    }
    if (value instanceof String text) {
      Long millis = TemporalValues.parseIsoDateTimeMillis(text);
      Integer days = millis == null ? TemporalValues.parseIsoDate(text) : null;
      if (millis != null || days != null) {
        return millis != null ? millis : days * 86_400_000L;
      }
    }
    throw new RecordRejectedException(
        "timestamp field '"
            + timestampField
            + "' holds "
            + describe(value)
            + "; expected a Timestamp, epoch milliseconds or an ISO-8601 string");
  }

  private static String describe(Object value) {
    String text = String.valueOf(value);
    return value.getClass().getSimpleName()
        + " \""
        + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
        + "\"";
  }
}
