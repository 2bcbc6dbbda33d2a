package io.skippr.connect.source.file.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task's metrics, through Connect's plugin metrics (KIP-877; tagged with connector and task by
 * the worker): files open and completed, bytes and records read, rejections, files that shrank, and
 * the bytes not yet read, in total and per file ({@code file-lag-bytes} tagged {@code file}). On a
 * worker older than Kafka 4.1 there are no plugin metrics: the counters are kept but not published.
 */
public final class FileSourceMetrics {

  private static final Logger LOG = LoggerFactory.getLogger(FileSourceMetrics.class);

  /**
   * Numbers the task instances: sensor names are the worker's, shared by every plugin, so each
   * instance names its own, or another task (or the next instance of this one) would record into
   * this one's sensors and remove them when it stops.
   */
  private static final AtomicLong INSTANCES = new AtomicLong();

  private final PluginMetrics metrics;
  private final String sensorPrefix = "skippr-file-source:" + INSTANCES.incrementAndGet() + ":";
  private final Sensor bytes;
  private final Sensor records;
  private final Sensor rejections;
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong shrunk = new AtomicLong();
  private final Map<String, Lag> lagByFile = new ConcurrentHashMap<>();

  private record Lag(MetricName name, LongSupplier bytes) {}

  private FileSourceMetrics(PluginMetrics metrics) {
    this.metrics = metrics;
    this.bytes = sensor("bytes-read", "Bytes of file content read");
    this.records = sensor("records-read", "Records sent (rejections not counted)");
    this.rejections =
        sensor("rejected-records", "Lines rejected (sent to rejections.topic if set)");
    gauge("files-completed-total", "Files read to their end and completed", completed::get);
    gauge("files-shrunk-total", "Files found shorter than their offset (read again)", shrunk::get);
    gauge("lag-bytes", "Bytes of the task's plain files not read yet", this::totalLag);
  }

  /** The metrics of a task: published through the context's plugin metrics where there are any. */
  public static FileSourceMetrics of(SourceTaskContext context) {
    PluginMetrics metrics = null;
    try {
      metrics = context == null ? null : context.pluginMetrics();
    } catch (LinkageError | UnsupportedOperationException e) {
      LOG.info("This Connect worker has no plugin metrics (KIP-877): file source metrics are off");
    }
    return new FileSourceMetrics(metrics);
  }

  /** Metrics that are counted but published nowhere (tests, tools). */
  public static FileSourceMetrics unpublished() {
    return new FileSourceMetrics(null);
  }

  /** Publishes a gauge computed on demand, e.g. files open or total lag. */
  public void gauge(String name, String description, LongSupplier value) {
    if (metrics != null) {
      metrics.addMetric(
          metrics.metricName(name, description, new LinkedHashMap<>()),
          (Measurable) (config, now) -> value.getAsLong());
    }
  }

  public void read(long byteCount, int recordCount) {
    record(bytes, byteCount);
    record(records, recordCount);
  }

  public void rejected() {
    record(rejections, 1);
  }

  public void completed() {
    completed.incrementAndGet();
  }

  public void shrunk() {
    shrunk.incrementAndGet();
  }

  /**
   * Publishes the bytes not yet read of one file, until {@link #forgetLag}.
   *
   * @param id the file's identity
   * @param path its path under file.dir (the {@code file} tag; {@code id} holds the identity)
   */
  public void lag(String id, String path, LongSupplier value) {
    if (metrics == null || lagByFile.containsKey(id)) {
      return;
    }
    MetricName name =
        metrics.metricName(
            "file-lag-bytes", "Bytes of the file not read yet", tags("file", path, "id", id));
    metrics.addMetric(name, (Measurable) (config, now) -> value.getAsLong());
    lagByFile.put(id, new Lag(name, value));
  }

  public void forgetLag(String id) {
    Lag lag = lagByFile.remove(id);
    if (lag != null && metrics != null) {
      metrics.removeMetric(lag.name());
    }
  }

  private long totalLag() {
    long total = 0;
    for (Lag lag : lagByFile.values()) {
      total += lag.bytes().getAsLong();
    }
    return total;
  }

  public long completedCount() {
    return completed.get();
  }

  private Sensor sensor(String name, String what) {
    if (metrics == null) {
      return null;
    }
    Sensor sensor = metrics.addSensor(sensorPrefix + name);
    sensor.add(
        metrics.metricName(name + "-total", what + ", in total", new LinkedHashMap<>()),
        new CumulativeSum());
    sensor.add(
        metrics.metricName(name + "-rate", what + ", per second", new LinkedHashMap<>()),
        new Rate());
    return sensor;
  }

  private static LinkedHashMap<String, String> tags(String... keysAndValues) {
    LinkedHashMap<String, String> tags = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      tags.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return tags;
  }

  private static void record(Sensor sensor, double value) {
    if (sensor != null) {
      sensor.record(value);
    }
  }
}
