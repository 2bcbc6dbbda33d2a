package io.skippr.connect.source.poll.metrics;

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
 */
public final class PluginMetricsExport implements MetricsExport {

  private static final Logger LOG = LoggerFactory.getLogger(PluginMetricsExport.class);

  private final PluginMetrics metrics;
  private final List<MetricName> added = new ArrayList<>();

  private PluginMetricsExport(PluginMetrics metrics) {
    this.metrics = metrics;
  }

  /** The worker's plugin metrics, or {@link MetricsExport#NONE} when it offers none. */
  public static MetricsExport of(SourceTaskContext context) {
    try {
      return create(context);
    } catch (LinkageError | UnsupportedOperationException e) {
      LOG.info(
          "This Connect worker has no plugin metrics (KIP-877, Kafka 4.1+): HTTP poll metrics"
              + " are not published ({})",
          e.toString());
      return NONE;
    }
  }

  private static MetricsExport create(SourceTaskContext context) {
    PluginMetrics metrics = context.pluginMetrics();
    return metrics == null ? NONE : new PluginMetricsExport(metrics);
  }

  @Override
  public synchronized void add(
      String name, String description, LinkedHashMap<String, String> tags, DoubleSupplier value) {
    MetricName metricName = metrics.metricName(name, description, tags);
    metrics.addMetric(metricName, (Measurable) (config, now) -> value.getAsDouble());
    added.add(metricName);
  }

  @Override
  public synchronized void close() {
    for (MetricName name : added) {
      try {
        metrics.removeMetric(name);
      } catch (RuntimeException e) {
        // the worker closed the plugin metrics with the task already
      }
    }
    added.clear();
  }
}
