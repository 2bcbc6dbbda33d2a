package io.skippr.connect.lake.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.utils.Time;

/**
 * Plugin metrics for a worker older than Kafka 4.1, which has none (KIP-877): the same metrics in a
 * registry of the task's own, published over JMX as {@code kafka.connect.skippr:type=<group>,
 * connector=…,task=…,…}.
 */
final class FallbackPluginMetrics implements PluginMetrics, AutoCloseable {
  static final String JMX_PREFIX = "kafka.connect.skippr";

  private final Metrics metrics;
  private final String group;
  private final LinkedHashMap<String, String> taskTags;

  FallbackPluginMetrics(String group, String connector, String task) {
    this.metrics =
        new Metrics(
            new MetricConfig(),
            List.of(new JmxReporter()),
            Time.SYSTEM,
            new KafkaMetricsContext(JMX_PREFIX));
    this.group = group;
    this.taskTags = new LinkedHashMap<>();
    taskTags.put("connector", connector);
    taskTags.put("task", task);
  }

  @Override
  public MetricName metricName(
      String name, String description, LinkedHashMap<String, String> tags) {
    LinkedHashMap<String, String> all = new LinkedHashMap<>(taskTags);
    all.putAll(tags);
    return metrics.metricName(name, group, description, all);
  }

  @Override
  public void addMetric(MetricName metricName, MetricValueProvider<?> metricValueProvider) {
    metrics.addMetric(metricName, metricValueProvider);
  }

  @Override
  public void removeMetric(MetricName metricName) {
    metrics.removeMetric(metricName);
  }

  @Override
  public Sensor addSensor(String name) {
    return metrics.sensor(taskTags + name);
  }

  @Override
  public void removeSensor(String name) {
    metrics.removeSensor(taskTags + name);
  }

  @Override
  public void close() {
    metrics.close();
  }
}
