package io.skippr.connect.source.poll.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The poll source's counters per endpoint, kept in memory and published through a {@link
 * MetricsExport} the first time each is touched.
 */
public final class PollMetrics implements AutoCloseable {

  public static final String REQUESTS = "requests-total";
  public static final String RETRIES = "retries-total";
  public static final String THROTTLED = "throttled-total";
  public static final String TOKEN_REFRESHES = "token-refreshes-total";
  public static final String RECORDS = "records-total";
  public static final String SKIPPED = "records-skipped-total";
  public static final String REJECTED = "records-rejected-total";
  public static final String PAGES = "pages-total";
  public static final String PASSES = "passes-total";
  public static final String LAST_PASS_AGE = "last-pass-age-ms";

  private static final Map<String, String> DOCS =
      Map.of(
          REQUESTS, "Requests to the endpoint by HTTP status (io-error: no response).",
          RETRIES, "Requests retried after a transient failure or a 401.",
          THROTTLED, "Responses with status 429.",
          TOKEN_REFRESHES, "Access tokens fetched from the OAuth2 token endpoint.",
          RECORDS, "Records delivered.",
          SKIPPED, "Records listed again and skipped (already delivered).",
          REJECTED, "Records sent to the rejection topic.",
          PAGES, "Pages received.",
          PASSES, "Passes completed (caught up).");

  private record Key(String metric, String endpoint, String status) {}

  private final MetricsExport export;
  private final LongSupplier clockMillis;
  private final Map<Key, LongAdder> counters = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> lastPass = new ConcurrentHashMap<>();

  public PollMetrics(MetricsExport export, LongSupplier clockMillis) {
    this.export = export;
    this.clockMillis = clockMillis;
  }

  /** Registers the endpoint's gauge of the time since its last completed pass. */
  public void endpoint(String endpoint) {
    AtomicLong last = lastPass.computeIfAbsent(endpoint, e -> new AtomicLong(-1));
    export.add(
        LAST_PASS_AGE,
        "Milliseconds since the endpoint's last completed pass (-1 before the first).",
        tags(endpoint, null),
        () -> last.get() < 0 ? -1 : clockMillis.getAsLong() - last.get());
  }

  public void request(String endpoint, int status) {
    add(REQUESTS, endpoint, status == 0 ? "io-error" : Integer.toString(status), 1);
    if (status == 429) {
      add(THROTTLED, endpoint, null, 1);
    }
  }

  public void retry(String endpoint) {
    add(RETRIES, endpoint, null, 1);
  }

  public void tokenRefresh(String endpoint) {
    add(TOKEN_REFRESHES, endpoint, null, 1);
  }

  public void page(String endpoint, int delivered, int skipped, int rejected) {
    add(PAGES, endpoint, null, 1);
    add(RECORDS, endpoint, null, delivered);
    add(SKIPPED, endpoint, null, skipped);
    add(REJECTED, endpoint, null, rejected);
  }

  public void passCompleted(String endpoint) {
    add(PASSES, endpoint, null, 1);
    lastPass.computeIfAbsent(endpoint, e -> new AtomicLong(-1)).set(clockMillis.getAsLong());
  }

  /** A counter's value (tests, logs). */
  public long count(String metric, String endpoint) {
    return count(metric, endpoint, null);
  }

  public long count(String metric, String endpoint, String status) {
    LongAdder adder = counters.get(new Key(metric, endpoint, status));
    return adder == null ? 0 : adder.sum();
  }

  private void add(String metric, String endpoint, String status, long n) {
    counters
        .computeIfAbsent(
            new Key(metric, endpoint, status),
            k -> {
              LongAdder adder = new LongAdder();
              export.add(metric, DOCS.get(metric), tags(endpoint, status), adder::doubleValue);
              return adder;
            })
        .add(n);
  }

  private static LinkedHashMap<String, String> tags(String endpoint, String status) {
    LinkedHashMap<String, String> tags = new LinkedHashMap<>();
    tags.put("endpoint", endpoint);
    if (status != null) {
      tags.put("status", status);
    }
    return tags;
  }

  @Override
  public void close() {
    export.close();
  }
}
