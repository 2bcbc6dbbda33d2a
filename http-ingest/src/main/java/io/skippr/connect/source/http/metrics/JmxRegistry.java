package io.skippr.connect.source.http.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.utils.Time;

/**
 * Metrics the task registers with JMX itself ({@code
 * skippr.connect:type=http-ingest-metrics,connector=…,task=…}), for workers without plugin metrics.
 * Uses only kafka-clients API that older workers have too.
 */
final class JmxRegistry implements MetricRegistry {

  static final String DOMAIN = "skippr.connect";
  static final String GROUP = "http-ingest-metrics";

  private final Metrics metrics;
  private final Map<String, String> tags = new LinkedHashMap<>();

  JmxRegistry(String connector, int task) {
    tags.put("connector", connector);
    tags.put("task", Integer.toString(task));
    this.metrics =
        new Metrics(
            new MetricConfig(),
            List.of(new JmxReporter()),
            Time.SYSTEM,
            new KafkaMetricsContext(DOMAIN));
  }

  @Override
  public MetricName name(String name, String description, Map<String, String> more) {
    Map<String, String> all = new LinkedHashMap<>(tags);
    all.putAll(more);
    return metrics.metricName(name, GROUP, description, all);
  }

  @Override
  public Sensor sensor(String name) {
    return metrics.sensor(name);
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
    return "JMX " + DOMAIN + ":type=" + GROUP + "," + tags;
  }

  @Override
  public void close() {
    metrics.close();
  }
}
