package io.skippr.connect.source.http.config;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** How much may wait for Kafka at once (over it: 429), and how long a request waits (then 503). */
public final class AdmissionConfig {

  public static final String MAX_INFLIGHT_ROWS = "admission.max.inflight.rows";
  public static final String MAX_INFLIGHT_BYTES = "admission.max.inflight.bytes";
  public static final String RETRY_AFTER_SECONDS = "admission.retry.after.seconds";
  public static final String ACK_TIMEOUT_MS = "ack.timeout.ms";

  /** Admission and acknowledgement settings. */
  public record Values(
      long maxInflightRows, long maxInflightBytes, int retryAfterSeconds, long ackTimeoutMs) {}

  private AdmissionConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            MAX_INFLIGHT_ROWS,
            Type.LONG,
            250_000L,
            Range.atLeast(1),
            Importance.MEDIUM,
            "Rows (accepted and rejected) received but not yet acknowledged by Kafka, across all"
                + " requests. A request that would exceed it gets 429 with Retry-After. Must be at"
                + " least limits.request.max.rows.")
        .define(
            MAX_INFLIGHT_BYTES,
            Type.LONG,
            256L << 20,
            Range.atLeast(1),
            Importance.MEDIUM,
            "Decompressed request bytes not yet acknowledged by Kafka, across all requests; over"
                + " it → 429. Must be at least limits.request.max.decompressed.bytes.")
        .define(
            RETRY_AFTER_SECONDS,
            Type.INT,
            1,
            Range.between(1, 3600),
            Importance.LOW,
            "Retry-After value sent with 429 and 503.")
        .define(
            ACK_TIMEOUT_MS,
            Type.LONG,
            10_000L,
            Range.atLeast(1),
            Importance.MEDIUM,
            "How long a request waits for Kafka to acknowledge its rows before it gets 503 (then"
                + " none of its rows is reported accepted). Keep it below the clients' timeout.");
  }

  public static Values from(AbstractConfig c) {
    return new Values(
        c.getLong(MAX_INFLIGHT_ROWS),
        c.getLong(MAX_INFLIGHT_BYTES),
        c.getInt(RETRY_AFTER_SECONDS),
        c.getLong(ACK_TIMEOUT_MS));
  }
}
