package io.skippr.connect.source.http.metrics;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Percentile;
import org.apache.kafka.common.metrics.stats.Percentiles;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.connect.source.SourceTaskContext;

/**
 * The ingest metrics of one task, published through Connect's plugin metrics (KIP-877: MBean {@code
 * kafka.connect:type=plugins,connector=…,task=…}) or, on a worker without them, through JMX
 * directly ({@code skippr.connect:type=http-ingest-metrics,connector=…,task=…}):
 *
 * <ul>
 *   <li>{@code requests-2xx-total}, {@code requests-4xx-total}, {@code requests-5xx-total} and
 *       their {@code -rate}s: answered requests by status class;
 *   <li>{@code rows-accepted-total}/{@code -rate}: rows of answered writes that are durable in
 *       Kafka; {@code rows-rejected-total}/{@code -rate}: rows rejected (also on the rejection
 *       topic);
 *   <li>{@code bytes-in-total}/{@code -rate}: request body bytes as sent;
 *   <li>{@code rows-in-flight}, {@code bytes-in-flight}: rows and bytes received but not yet
 *       acknowledged (the admission limits' measure), {@code uploads-in-progress};
 *   <li>{@code ack-latency-avg}, {@code ack-latency-max}, {@code ack-latency-p99}: milliseconds
 *       from a write's arrival to its 204, over the metrics window.
 * </ul>
 */
public final class TaskMetrics implements IngestMetrics {

  /** Longest latency the percentile histogram tells apart (longer ones count as this). */
  private static final double LATENCY_HISTOGRAM_MAX_MS = 60_000;

  private static final int LATENCY_HISTOGRAM_BYTES = 4_000;

  private final MetricRegistry registry;
  private final Sensor[] requests = new Sensor[6];
  private final Sensor accepted;
  private final Sensor rejected;
  private final Sensor bytesIn;
  private final Sensor latency;

  private TaskMetrics(MetricRegistry registry) {
    this.registry = registry;
    for (int statusClass = 2; statusClass <= 5; statusClass++) {
      String name = "requests-" + statusClass + "xx";
      requests[statusClass] = sum(name, "Requests answered with a " + statusClass + "xx status");
    }
    this.accepted = sum("rows-accepted", "Rows of answered writes that are durable in Kafka");
    this.rejected = sum("rows-rejected", "Rows rejected (each also on the rejection topic)");
    this.bytesIn = sum("bytes-in", "Request body bytes received, as sent");
    this.latency = registry.sensor("ack-latency");
    latency.add(name("ack-latency-avg", "Average ms from a write's arrival to its 204"), new Avg());
    latency.add(name("ack-latency-max", "Longest ms from a write's arrival to its 204"), new Max());
    latency.add(
        new Percentiles(
            LATENCY_HISTOGRAM_BYTES,
            LATENCY_HISTOGRAM_MAX_MS,
            Percentiles.BucketSizing.LINEAR,
            new Percentile(
                name("ack-latency-p99", "99th percentile of ms from a write's arrival to its 204"),
                99)));
  }

  /**
   * The task's metrics: plugin metrics where the worker has them, else JMX; never fails.
   *
   * @param connector the connector name (JMX fallback tag)
   * @param task the task number (JMX fallback tag)
   */
  public static TaskMetrics of(SourceTaskContext context, String connector, int task) {
    return new TaskMetrics(MetricRegistry.forTask(context, connector, task));
  }

  /** Publishes a gauge computed on demand. */
  public void gauge(String name, String description, LongSupplier value) {
    registry.gauge(name(name, description), (Measurable) (config, now) -> value.getAsLong());
  }

  /** Where the metrics are published, for log lines. */
  public String describe() {
    return registry.describe();
  }

  @Override
  public void answered(int status, boolean write, long receivedNanos) {
    int statusClass = status / 100;
    if (statusClass >= 2 && statusClass <= 5) {
      requests[statusClass].record();
    }
    if (write && status == 204) {
      latency.record(
          (System.nanoTime() - receivedNanos) / (double) TimeUnit.MILLISECONDS.toNanos(1));
    }
  }

  @Override
  public void rows(long acceptedRows, long rejectedRows) {
    if (acceptedRows > 0) {
      accepted.record(acceptedRows);
    }
    if (rejectedRows > 0) {
      rejected.record(rejectedRows);
    }
  }

  @Override
  public void bytesIn(long bytes) {
    bytesIn.record(bytes);
  }

  @Override
  public void close() {
    registry.close();
  }

  private Sensor sum(String name, String what) {
    Sensor sensor = registry.sensor(name);
    sensor.add(name(name + "-total", what + ", in total"), new CumulativeSum());
    sensor.add(name(name + "-rate", what + ", per second"), new Rate());
    return sensor;
  }

  private MetricName name(String name, String description) {
    return registry.name(name, description);
  }
}
