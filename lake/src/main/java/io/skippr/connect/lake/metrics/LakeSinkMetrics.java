package io.skippr.connect.lake.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lake sink task's metrics, through Connect's plugin metrics (KIP-877, on workers from Kafka
 * 4.1: tagged with connector and task by the worker), else through JMX of their own ({@link
 * FallbackPluginMetrics}); never a reason to fail. Values read by reporters on other threads are
 * kept in atomics, so a reporter never touches the task's state.
 */
public final class LakeSinkMetrics implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LakeSinkMetrics.class);
  private static final String GROUP = "lake-sink";

  private final PluginMetrics metrics;
  private final AutoCloseable owned;
  private final Sensor units;
  private final Sensor files;
  private final Sensor rows;
  private final Sensor bytes;
  private final Sensor commitLatency;
  private final Map<TopicPartition, Tp> tps = new ConcurrentHashMap<>();

  /** What the gauges of one TP read. */
  public static final class Tp {
    private final AtomicLong committedEnd = new AtomicLong(-1);
    private final AtomicLong position = new AtomicLong(-1);
    private MetricName committedName;
    private MetricName lagName;

    /** The last offset in the lake, after a commit. */
    public void committed(long end) {
      committedEnd.set(end);
    }

    /** The highest offset delivered, as a record joins. */
    public void delivered(long offset) {
      position.lazySet(offset);
    }

    long lag() {
      long delivered = position.get();
      return delivered < 0 ? 0 : Math.max(0, delivered - committedEnd.get());
    }
  }

  private LakeSinkMetrics(PluginMetrics metrics, AutoCloseable owned) {
    this.metrics = metrics;
    this.owned = owned;
    this.units = sensor("units-committed", "Units committed", true);
    this.files = sensor("files-committed", "Files committed", false);
    this.rows = sensor("rows-committed", "Rows committed", true);
    this.bytes = sensor("bytes-committed", "Bytes of Parquet committed", true);
    this.commitLatency = latency();
  }

  /**
   * The metrics of a task: its context's plugin metrics, else (older workers) a JMX registry of its
   * own tagged with {@code connector} and a task name.
   */
  public static LakeSinkMetrics of(SinkTaskContext context, String connector, String task) {
    try {
      PluginMetrics plugin = context.pluginMetrics();
      if (plugin != null) {
        return new LakeSinkMetrics(plugin, null);
      }
    } catch (LinkageError | UnsupportedOperationException e) {
      // an older worker: no plugin metrics
    }
    {
      LOG.info(
          "This Connect worker has no plugin metrics (KIP-877): lake sink metrics are published"
              + " over JMX as {}:type={}",
          FallbackPluginMetrics.JMX_PREFIX,
          GROUP);
      FallbackPluginMetrics fallback = new FallbackPluginMetrics(GROUP, connector, task);
      return new LakeSinkMetrics(fallback, fallback);
    }
  }

  /** Publishes a task-wide gauge, e.g. bytes buffered. */
  public void gauge(String name, String description, LongSupplier value) {
    metrics.addMetric(
        metrics.metricName(name, description, new LinkedHashMap<>()),
        (Measurable) (config, now) -> value.getAsLong());
  }

  /**
   * Publishes a task-wide counter kept elsewhere (e.g. by maintenance), as {@code <name>-total}:
   * {@code total} only ever grows.
   */
  public void count(String name, String description, LongSupplier total) {
    gauge(name + "-total", description + ", in total", total);
  }

  /** Starts the gauges of a TP the task opened. */
  public Tp open(TopicPartition tp) {
    Tp gauges = new Tp();
    LinkedHashMap<String, String> tags = new LinkedHashMap<>();
    tags.put("topic", tp.topic());
    tags.put("partition", Integer.toString(tp.partition()));
    gauges.committedName =
        metrics.metricName("committed-offset", "The last offset of the TP in the lake", tags);
    gauges.lagName =
        metrics.metricName(
            "lag-records",
            "Offsets delivered but not yet committed to the lake (buffered or being written)",
            new LinkedHashMap<>(tags));
    close(tp);
    metrics.addMetric(
        gauges.committedName, (Measurable) (config, now) -> gauges.committedEnd.get());
    metrics.addMetric(gauges.lagName, (Measurable) (config, now) -> gauges.lag());
    tps.put(tp, gauges);
    return gauges;
  }

  /** Ends the gauges of a TP the task closed. */
  public void close(TopicPartition tp) {
    Tp gauges = tps.remove(tp);
    if (gauges != null) {
      metrics.removeMetric(gauges.committedName);
      metrics.removeMetric(gauges.lagName);
    }
  }

  /** A unit was committed: its files, rows and bytes, and how long it took since its cut. */
  public void committed(int fileCount, long rowCount, long byteCount, long latencyMs) {
    units.record(1);
    files.record(fileCount);
    rows.record(rowCount);
    bytes.record(byteCount);
    commitLatency.record(latencyMs);
  }

  @Override
  public void close() {
    for (TopicPartition tp : tps.keySet()) {
      close(tp);
    }
    if (owned != null) {
      try {
        owned.close();
      } catch (Exception e) {
        LOG.debug("Closing the task's metrics failed: {}", e.toString());
      }
    }
  }

  private Sensor sensor(String name, String what, boolean withRate) {
    Sensor sensor = metrics.addSensor(name);
    sensor.add(
        metrics.metricName(name + "-total", what + ", in total", new LinkedHashMap<>()),
        new CumulativeSum());
    if (withRate) {
      sensor.add(
          metrics.metricName(name + "-rate", what + ", per second", new LinkedHashMap<>()),
          new Rate());
    }
    return sensor;
  }

  private Sensor latency() {
    Sensor sensor = metrics.addSensor("commit-latency");
    sensor.add(
        metrics.metricName(
            "commit-latency-avg",
            "Milliseconds from a unit's cut to its commit, on average",
            new LinkedHashMap<>()),
        new Avg());
    sensor.add(
        metrics.metricName(
            "commit-latency-max",
            "Milliseconds from a unit's cut to its commit, at most",
            new LinkedHashMap<>()),
        new Max());
    return sensor;
  }
}
