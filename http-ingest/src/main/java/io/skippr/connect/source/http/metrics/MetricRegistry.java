package io.skippr.connect.source.http.metrics;

import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a task's metrics go. Kept free of {@code PluginMetrics} in its signatures, so that this
 * type loads on a worker whose kafka-clients predates KIP-877.
 */
interface MetricRegistry extends AutoCloseable {

  Logger LOG = LoggerFactory.getLogger(MetricRegistry.class);

  /** A metric name with the task's tags and then {@code tags}. */
  MetricName name(String name, String description, Map<String, String> tags);

  /** A new sensor of this task instance (its name is the registry's, unique per instance). */
  Sensor sensor(String name);

  void gauge(MetricName name, Measurable value);

  void remove(MetricName name);

  /** Removes a sensor this registry made, and its metrics. */
  void removeSensor(Sensor sensor);

  String describe();

  @Override
  void close();

  /**
   * The context's plugin metrics (KIP-877, workers 4.1 and later); on older workers, or without a
   * context, metrics registered with JMX by this task itself.
   *
   * @param instance the task instance (sensor names carry it: see {@link TaskMetrics})
   */
  static MetricRegistry forTask(
      SourceTaskContext context, String connector, int task, long instance) {
    if (context != null) {
      try {
        return PluginRegistry.of(context, connector, task, instance);
      } catch (LinkageError | UnsupportedOperationException e) {
        LOG.info(
            "This Connect worker has no plugin metrics (KIP-877, Kafka 4.1+): HTTP ingest metrics"
                + " are registered with JMX as skippr.connect:type=http-ingest-metrics ({})",
            e.toString());
      }
    }
    return new JmxRegistry(connector, task);
  }
}
