package io.skippr.connect.source.poll.metrics;

import io.skippr.connect.source.common.metrics.MetricOwners;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.DoubleSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Metrics through Connect's plugin metrics (KIP-877, Kafka 4.1+): the worker tags them with the
 * connector and task and reports them like its own (JMX group {@code kafka.connect.plugins}). This
 * class is loaded only through {@link #of}, which falls back to {@link MetricsExport#NONE} on older
 * workers, where neither {@code pluginMetrics()} nor {@link PluginMetrics} exists.
 *
 * <p>A task instance that Connect gave up waiting for can still hold the names when the next
 * instance of the same task starts: the newest instance takes them over ({@link MetricOwners}).
 */
public final class PluginMetricsExport extends MetricOwners.Owner implements MetricsExport {

  private static final Logger LOG = LoggerFactory.getLogger(PluginMetricsExport.class);

  private final PluginMetrics metrics;
  private final List<Metric> metricsAdded = new ArrayList<>();
  private final List<MetricName> registered = new ArrayList<>();
  private boolean published;

  private record Metric(MetricName name, DoubleSupplier value) {}

  private PluginMetricsExport(PluginMetrics metrics, long instance) {
    // The worker's own tags (connector, task) tell this task's metric names from other tasks'.
    super("http-poll:" + metrics.metricName("task", "", new LinkedHashMap<>()).tags(), instance);
    this.metrics = metrics;
  }

  /**
   * The worker's plugin metrics, or {@link MetricsExport#NONE} when it offers none.
   *
   * @param instance orders this worker's instances of the task ({@link MetricOwners#nextInstance})
   */
  public static MetricsExport of(SourceTaskContext context, long instance) {
    try {
      return create(context, instance);
    } catch (LinkageError | UnsupportedOperationException e) {
      LOG.info(
          "This Connect worker has no plugin metrics (KIP-877, Kafka 4.1+): HTTP poll metrics"
              + " are not published ({})",
          e.toString());
      return NONE;
    }
  }

  private static MetricsExport create(SourceTaskContext context, long instance) {
    PluginMetrics metrics = context.pluginMetrics();
    if (metrics == null) {
      return NONE;
    }
    PluginMetricsExport export = new PluginMetricsExport(metrics, instance);
    export.claim();
    return export;
  }

  @Override
  public void add(
      String name, String description, LinkedHashMap<String, String> tags, DoubleSupplier value) {
    Metric metric = new Metric(metrics.metricName(name, description, tags), value);
    MetricOwners.change(
        () -> {
          metricsAdded.add(metric);
          if (published) {
            register(metric);
          }
        });
  }

  @Override
  protected void publish() {
    published = true;
    metricsAdded.forEach(this::register);
  }

  @Override
  protected void unpublish() {
    published = false;
    for (MetricName name : registered) {
      try {
        metrics.removeMetric(name);
      } catch (RuntimeException e) {
        // the worker closed the plugin metrics with the task already
      }
    }
    registered.clear();
  }

  private void register(Metric metric) {
    try {
      metrics.addMetric(metric.name(), (Measurable) (config, now) -> metric.value().getAsDouble());
      registered.add(metric.name());
    } catch (RuntimeException e) {
      LOG.warn(
          "HTTP poll metric {} {} not published: {}",
          metric.name().name(),
          metric.name().tags(),
          e.toString());
    }
  }
}
