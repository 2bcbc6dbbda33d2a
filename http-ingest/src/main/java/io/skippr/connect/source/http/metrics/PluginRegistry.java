package io.skippr.connect.source.http.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.connect.source.SourceTaskContext;

/**
 * Connect's plugin metrics of the task; the worker tags them and removes them with the task. Sensor
 * names are the worker's, shared by every plugin: they carry the task's identity and instance, or a
 * second task, or the next instance of this one, would get (and, when it stops, remove) this one's
 * sensors.
 */
final class PluginRegistry implements MetricRegistry {

  private final PluginMetrics metrics;
  private final String sensorPrefix;

  private PluginRegistry(PluginMetrics metrics, String sensorPrefix) {
    this.metrics = metrics;
    this.sensorPrefix = sensorPrefix;
  }

  static PluginRegistry of(SourceTaskContext context, String connector, int task, long instance) {
    PluginMetrics metrics = context.pluginMetrics();
    if (metrics == null) {
      throw new UnsupportedOperationException("the task context has no plugin metrics");
    }
    return new PluginRegistry(
        metrics, "skippr-http-ingest:" + connector + ":" + task + ":" + instance + ":");
  }

  @Override
  public MetricName name(String name, String description, Map<String, String> tags) {
    return metrics.metricName(name, description, new LinkedHashMap<>(tags));
  }

  @Override
  public Sensor sensor(String name) {
    return metrics.addSensor(sensorPrefix + name);
  }

  @Override
  public void gauge(MetricName name, Measurable value) {
    metrics.addMetric(name, value);
  }

  @Override
  public void remove(MetricName name) {
    metrics.removeMetric(name);
  }

  @Override
  public void removeSensor(Sensor sensor) {
    metrics.removeSensor(sensor.name());
  }

  @Override
  public String describe() {
    return "Connect plugin metrics (kafka.connect:type=plugins)";
  }

  @Override
  public void close() {
    // the worker closes the task's plugin metrics
  }
}
