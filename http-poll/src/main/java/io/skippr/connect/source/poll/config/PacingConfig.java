package io.skippr.connect.source.poll.config;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** How often an endpoint is asked: passes, request rate and retries. */
public final class PacingConfig {

  public static final String POLL_INTERVAL_MS = "poll.interval.ms";
  public static final String RATE_LIMIT = "rate.limit.per.second";
  public static final String RETRY_MAX_ATTEMPTS = "retry.max.attempts";
  public static final String RETRY_BACKOFF_MS = "retry.backoff.ms";
  public static final String RETRY_BACKOFF_MAX_MS = "retry.backoff.max.ms";

  /** The pacing settings. */
  public record Values(
      long pollIntervalMs,
      double ratePerSecond,
      int maxAttempts,
      long backoffMs,
      long backoffMaxMs) {}

  private PacingConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            POLL_INTERVAL_MS,
            Type.LONG,
            60_000L,
            Range.atLeast(0),
            Importance.HIGH,
            "Wait between the end of a pass (the last page, caught up) and the start of the next.")
        .define(
            RATE_LIMIT,
            Type.DOUBLE,
            0.0,
            Range.atLeast(0),
            Importance.MEDIUM,
            "Most requests per second to this endpoint, retries included (e.g. 0.5: one request"
                + " every 2 s). 0: no limit.")
        .define(
            RETRY_MAX_ATTEMPTS,
            Type.INT,
            10,
            Range.between(1, 1000),
            Importance.MEDIUM,
            "Attempts of one request, the first included, on 408, 425, 429, 5xx, 403 with"
                + " Retry-After, and I/O errors; when all fail, the task fails with the last"
                + " status and URL.")
        .define(
            RETRY_BACKOFF_MS,
            Type.LONG,
            1_000L,
            Range.atLeast(1),
            Importance.LOW,
            "First wait before a retry; it doubles per attempt (with jitter: a random 50-100% of"
                + " it). A Retry-After header (seconds or an HTTP date) replaces it.")
        .define(
            RETRY_BACKOFF_MAX_MS,
            Type.LONG,
            60_000L,
            Range.atLeast(1),
            Importance.LOW,
            "Longest computed wait between retries (Retry-After is honoured even when longer, up"
                + " to one hour).");
  }

  public static Values from(AbstractConfig c) {
    return new Values(
        c.getLong(POLL_INTERVAL_MS),
        c.getDouble(RATE_LIMIT),
        c.getInt(RETRY_MAX_ATTEMPTS),
        c.getLong(RETRY_BACKOFF_MS),
        c.getLong(RETRY_BACKOFF_MAX_MS));
  }
}
