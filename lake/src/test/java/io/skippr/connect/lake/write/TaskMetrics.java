package io.skippr.connect.lake.write;

import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * A task's metrics as a Kafka 4.1+ worker gives them (KIP-877 plugin metrics over a real registry,
 * tagged {@code connector=lake, task=0}), read back by name.
 */
final class TaskMetrics implements AutoCloseable {
  private final Metrics registry = new Metrics();
  final LakeSinkMetrics sink;

  TaskMetrics() {
    PluginMetricsImpl plugin =
        new PluginMetricsImpl(registry, Map.of("connector", "lake", "task", "0"));
    SinkTaskContext context =
        (SinkTaskContext)
            Proxy.newProxyInstance(
                SinkTaskContext.class.getClassLoader(),
                new Class<?>[] {SinkTaskContext.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("pluginMetrics")) {
                    return plugin;
                  }
                  throw new UnsupportedOperationException(method.getName());
                });
    sink = LakeSinkMetrics.of(context, "lake", "0");
  }

  MetricName name(String name) {
    return registry.metrics().keySet().stream()
        .filter(n -> n.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + name));
  }

  long value(String name) {
    return ((Number) registry.metrics().get(name(name)).metricValue()).longValue();
  }

  @Override
  public void close() {
    sink.close();
    registry.close();
  }
}
