package io.skippr.connect.source.http.metrics;

import io.skippr.connect.source.common.metrics.MetricOwners;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest metrics of one task, published through Connect's plugin metrics (KIP-877: MBean {@code
 * kafka.connect:type=plugins,connector=…,task=…}) or, on a worker without them, through JMX
 * directly ({@code skippr.connect:type=http-ingest-metrics,connector=…,task=…}):
 *
 * <ul>
 *   <li>{@code requests-2xx-total}, {@code requests-3xx-total}, {@code requests-4xx-total}, {@code
 *       requests-5xx-total} and their {@code -rate}s: answered requests by status class;
 *   <li>{@code requests-total} tagged {@code status} (one of {@link IngestSensors#STATUSES}):
 *       answered requests by status, e.g. the 408, 413, 429 and 503 that tell clients to back off;
 *   <li>{@code rows-accepted-total}/{@code -rate}: rows of answered writes that are durable in
 *       Kafka; {@code rows-rejected-total}/{@code -rate}: rows rejected (also on the rejection
 *       topic);
 *   <li>{@code bytes-in-total}/{@code -rate}: request body bytes as sent;
 *   <li>{@code rows-in-flight}, {@code bytes-in-flight}: rows and bytes received but not yet
 *       acknowledged (the admission limits' measure), {@code uploads-in-progress};
 *   <li>{@code ack-latency-avg}, {@code ack-latency-max}, {@code ack-latency-p99}: milliseconds
 *       from a write's arrival to its 204, over the metrics window.
 * </ul>
 *
 * <p>A task instance that Connect gave up waiting for (its stop took longer than {@code
 * task.shutdown.graceful.timeout.ms}) can still hold the names when the next instance of the same
 * task starts on the worker: the newest instance takes them over ({@link MetricOwners}), and each
 * instance removes its own metrics when it stops, so a restart never fails on a name and an old
 * instance never removes the new one's metrics.
 */
public final class TaskMetrics extends MetricOwners.Owner implements IngestMetrics {

  private static final Logger LOG = LoggerFactory.getLogger(TaskMetrics.class);

  private final MetricRegistry registry;
  private final List<Gauge> gauges = new ArrayList<>();
  private final List<MetricName> registered = new ArrayList<>();
  private volatile IngestSensors sensors;

  /** A gauge computed on demand. */
  record Gauge(String name, String description, LongSupplier value) {}

  private TaskMetrics(MetricRegistry registry, String task, long instance) {
    super(task, instance);
    this.registry = registry;
  }

  /**
   * The task's metrics: plugin metrics where the worker has them, else JMX; never fails.
   *
   * @param connector the connector name (JMX fallback tag)
   * @param task the task number (JMX fallback tag)
   * @param instance orders the instances of this task on the worker: the newest one publishes
   */
  public static TaskMetrics of(
      SourceTaskContext context, String connector, int task, long instance) {
    TaskMetrics metrics =
        new TaskMetrics(
            MetricRegistry.forTask(context, connector, task, instance),
            connector + "/" + task,
            instance);
    metrics.claim();
    return metrics;
  }

  /** Publishes a gauge computed on demand (while this instance owns the task's metrics). */
  public void gauge(String name, String description, LongSupplier value) {
    Gauge gauge = new Gauge(name, description, value);
    MetricOwners.change(() -> add(gauge));
  }

  /** Where the metrics are published, for log lines. */
  public String describe() {
    return registry.describe();
  }

  @Override
  public void answered(int status, boolean write, long receivedNanos) {
    IngestSensors published = sensors;
    if (published != null) {
      published.answered(status, write, receivedNanos);
    }
  }

  @Override
  public void rows(long acceptedRows, long rejectedRows) {
    IngestSensors published = sensors;
    if (published != null) {
      published.rows(acceptedRows, rejectedRows);
    }
  }

  @Override
  public void bytesIn(long bytes) {
    IngestSensors published = sensors;
    if (published != null) {
      published.bytesIn(bytes);
    }
  }

  /** Removes this instance's metrics (unless a newer instance took them over) and closes. */
  @Override
  public void close() {
    super.close();
    registry.close();
  }

  boolean published() {
    return sensors != null;
  }

  /** Registers the sensors and gauges; called by {@link MetricOwners} under its lock. */
  @Override
  protected void publish() {
    sensors = new IngestSensors(registry);
    gauges.forEach(this::register);
  }

  /** Removes everything {@link #publish} registered; called by {@link MetricOwners}. */
  @Override
  protected void unpublish() {
    IngestSensors published = sensors;
    sensors = null;
    if (published != null) {
      published.remove();
    }
    for (MetricName name : registered) {
      try {
        registry.remove(name);
      } catch (RuntimeException e) {
        // the worker closed the task's plugin metrics already
      }
    }
    registered.clear();
  }

  /** Keeps the gauge, registering it now if this instance publishes; under the owners' lock. */
  private void add(Gauge gauge) {
    gauges.add(gauge);
    if (published()) {
      register(gauge);
    }
  }

  private void register(Gauge gauge) {
    MetricName name = registry.name(gauge.name(), gauge.description(), Map.of());
    try {
      registry.gauge(name, (Measurable) (config, now) -> gauge.value().getAsLong());
      registered.add(name);
    } catch (RuntimeException e) {
      notRegistered(name, e);
    }
  }

  static void notRegistered(MetricName name, RuntimeException e) {
    LOG.warn("HTTP ingest metric {} {} not published: {}", name.name(), name.tags(), e.toString());
  }
}
