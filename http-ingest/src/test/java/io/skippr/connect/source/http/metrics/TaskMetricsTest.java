package io.skippr.connect.source.http.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;

/** Two tasks in one worker share its metrics registry, as Connect's plugin metrics do. */
class TaskMetricsTest {

  @Test
  void aStoppedTaskLeavesTheOtherTasksMetricsInPlace() throws Exception {
    try (Metrics worker = new Metrics()) {
      PluginMetricsImpl first = plugin(worker, "a", 0);
      PluginMetricsImpl second = plugin(worker, "b", 0);
      TaskMetrics a = TaskMetrics.of(context(first), "a", 0);
      TaskMetrics b = TaskMetrics.of(context(second), "b", 0);
      a.answered(204, true, System.nanoTime());
      b.answered(204, true, System.nanoTime());
      b.answered(503, true, System.nanoTime());
      second.close(); // the worker closes a stopped task's plugin metrics
      b.close();
      a.answered(204, true, System.nanoTime());
      assertThat(value(worker, "requests-2xx-total", "a")).isEqualTo(2.0);
      assertThat(worker.metric(name(worker, "requests-2xx-total", "b"))).isNull();
    }
  }

  private static PluginMetricsImpl plugin(Metrics worker, String connector, int task) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("connector", connector);
    tags.put("task", Integer.toString(task));
    return new PluginMetricsImpl(worker, tags);
  }

  private static MetricName name(Metrics worker, String metric, String connector) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("connector", connector);
    tags.put("task", "0");
    return worker.metricName(metric, "plugins", "", tags);
  }

  private static double value(Metrics worker, String metric, String connector) {
    return (double) worker.metric(name(worker, metric, connector)).metricValue();
  }

  private static SourceTaskContext context(PluginMetrics metrics) {
    return new SourceTaskContext() {
      @Override
      public Map<String, String> configs() {
        return Map.of();
      }

      @Override
      public OffsetStorageReader offsetStorageReader() {
        return null;
      }

      @Override
      public PluginMetrics pluginMetrics() {
        return metrics;
      }
    };
  }
}
