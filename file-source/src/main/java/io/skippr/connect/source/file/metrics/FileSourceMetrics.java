package io.skippr.connect.source.file.metrics;

import io.skippr.connect.source.common.metrics.MetricOwners;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
 *
 * <p>A task instance that Connect gave up waiting for can still hold the names when the next
 * instance of the same task starts: the newest instance takes them over ({@link MetricOwners}), and
 * each instance removes its own metrics when it closes, so a restart never fails on a name and an
 * old instance never removes the new one's metrics.
 */
public final class FileSourceMetrics extends MetricOwners.Owner {

  private static final Logger LOG = LoggerFactory.getLogger(FileSourceMetrics.class);

  private final PluginMetrics metrics;
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong shrunk = new AtomicLong();
  private final List<Gauge> gauges = new ArrayList<>();
  private final Map<String, Gauge> lagByFile = new ConcurrentHashMap<>();
  private final List<MetricName> registered = new ArrayList<>();
  private volatile Sensors sensors;

  /** A gauge computed on demand; {@code tags} beyond the worker's. */
  private record Gauge(
      String name, String description, Map<String, String> tags, LongSupplier value) {}

  /** The sensors of one published instance. */
  private record Sensors(Sensor bytes, Sensor records, Sensor rejections) {}

  private FileSourceMetrics(PluginMetrics metrics, long instance) {
    // The worker's own tags (connector, task) tell this task's metric names from other tasks'.
    super(
        metrics == null
            ? "file-source:unpublished:" + instance
            : "file-source:" + metrics.metricName("task", "", new LinkedHashMap<>()).tags(),
        instance);
    this.metrics = metrics;
    gauges.add(
        counter("files-completed-total", "Files read to their end and completed", completed));
    gauges.add(
        counter(
            "files-shrunk-total", "Files found shorter than their offset (read again)", shrunk));
    gauges.add(
        new Gauge(
            "lag-bytes", "Bytes of the task's plain files not read yet", Map.of(), this::totalLag));
  }

  /**
   * The metrics of a task: published through the context's plugin metrics where there are any.
   *
   * @param instance orders this worker's instances of the task ({@link MetricOwners#nextInstance})
   */
  public static FileSourceMetrics of(SourceTaskContext context, long instance) {
    PluginMetrics metrics = null;
    try {
      metrics = context == null ? null : context.pluginMetrics();
    } catch (LinkageError | UnsupportedOperationException e) {
      LOG.info("This Connect worker has no plugin metrics (KIP-877): file source metrics are off");
    }
    FileSourceMetrics created = new FileSourceMetrics(metrics, instance);
    if (metrics != null) {
      created.claim();
    }
    return created;
  }

  /** Metrics that are counted but published nowhere (tests, tools). */
  public static FileSourceMetrics unpublished() {
    return new FileSourceMetrics(null, 0);
  }

  /** Publishes a gauge computed on demand, e.g. files open or total lag. */
  public void gauge(String name, String description, LongSupplier value) {
    add(new Gauge(name, description, Map.of(), value));
  }

  public void read(long byteCount, int recordCount) {
    Sensors published = sensors;
    if (published != null) {
      published.bytes().record(byteCount);
      published.records().record(recordCount);
    }
  }

  public void rejected() {
    Sensors published = sensors;
    if (published != null) {
      published.rejections().record(1);
    }
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
    MetricOwners.change(
        () -> {
          if (lagByFile.containsKey(id)) {
            return;
          }
          Gauge lag =
              new Gauge("file-lag-bytes", "Bytes of the file not read yet", tags(path, id), value);
          lagByFile.put(id, lag);
          if (sensors != null) {
            register(lag);
          }
        });
  }

  public void forgetLag(String id) {
    MetricOwners.change(
        () -> {
          Gauge lag = lagByFile.remove(id);
          if (lag != null && sensors != null) {
            MetricName name = name(lag);
            if (registered.remove(name)) {
              remove(name);
            }
          }
        });
  }

  public long completedCount() {
    return completed.get();
  }

  /** Registers the sensors and gauges; called by {@link MetricOwners} under its lock. */
  @Override
  protected void publish() {
    sensors =
        new Sensors(
            sensor("bytes-read", "Bytes of file content read"),
            sensor("records-read", "Records sent (rejections not counted)"),
            sensor("rejected-records", "Lines rejected (sent to rejections.topic if set)"));
    gauges.forEach(this::register);
    lagByFile.values().forEach(this::register);
  }

  /** Removes everything {@link #publish} registered; called by {@link MetricOwners}. */
  @Override
  protected void unpublish() {
    Sensors published = sensors;
    sensors = null;
    if (published != null) {
      for (Sensor sensor :
          List.of(published.bytes(), published.records(), published.rejections())) {
        try {
          metrics.removeSensor(sensor.name());
        } catch (RuntimeException e) {
          // the worker closed the task's plugin metrics already
        }
      }
    }
    registered.forEach(this::remove);
    registered.clear();
  }

  private void add(Gauge gauge) {
    MetricOwners.change(
        () -> {
          gauges.add(gauge);
          if (sensors != null) {
            register(gauge);
          }
        });
  }

  private void register(Gauge gauge) {
    MetricName name = name(gauge);
    try {
      metrics.addMetric(name, (Measurable) (config, now) -> gauge.value().getAsLong());
      registered.add(name);
    } catch (RuntimeException e) {
      LOG.warn("File source metric {} {} not published: {}", name.name(), name.tags(), e);
    }
  }

  private void remove(MetricName name) {
    try {
      metrics.removeMetric(name);
    } catch (RuntimeException e) {
      // the worker closed the task's plugin metrics already
    }
  }

  private MetricName name(Gauge gauge) {
    return metrics.metricName(gauge.name(), gauge.description(), new LinkedHashMap<>(gauge.tags()));
  }

  private long totalLag() {
    long total = 0;
    for (Gauge lag : lagByFile.values()) {
      total += lag.value().getAsLong();
    }
    return total;
  }

  /**
   * A sensor of this instance: sensor names are the worker's, shared by every plugin, so each
   * instance names its own, or another task (or the next instance of this one) would record into
   * this one's sensors and remove them when it stops.
   */
  private Sensor sensor(String name, String what) {
    Sensor sensor = metrics.addSensor("skippr-file-source:" + instance() + ":" + name);
    sensor.add(
        metrics.metricName(name + "-total", what + ", in total", new LinkedHashMap<>()),
        new CumulativeSum());
    sensor.add(
        metrics.metricName(name + "-rate", what + ", per second", new LinkedHashMap<>()),
        new Rate());
    return sensor;
  }

  private static Gauge counter(String name, String description, AtomicLong counter) {
    return new Gauge(name, description, Map.of(), counter::get);
  }

  private static Map<String, String> tags(String path, String id) {
    LinkedHashMap<String, String> tags = new LinkedHashMap<>();
    tags.put("file", path);
    tags.put("id", id);
    return tags;
  }
}
