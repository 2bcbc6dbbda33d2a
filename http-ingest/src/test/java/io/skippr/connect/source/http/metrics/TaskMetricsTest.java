package io.skippr.connect.source.http.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.skippr.connect.testkit.TaskContexts;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.junit.jupiter.api.Test;

/**
 * Tasks in one worker share its metrics registry, as Connect's plugin metrics do: other tasks, and
 * instances of the same task that overlap when Connect gives up waiting for one to stop.
 */
class TaskMetricsTest {

  @Test
  void aStoppedTaskLeavesTheOtherTasksMetricsInPlace() throws Exception {
    try (Metrics worker = new Metrics()) {
      PluginMetricsImpl first = plugin(worker, "a", 0);
      PluginMetricsImpl second = plugin(worker, "b", 0);
      TaskMetrics a = TaskMetrics.of(context(first), "a", 0, 1);
      TaskMetrics b = TaskMetrics.of(context(second), "b", 0, 2);
      a.answered(204, true, System.nanoTime());
      b.answered(204, true, System.nanoTime());
      b.answered(503, true, System.nanoTime());
      b.close();
      second.close(); // the worker closes a stopped task's plugin metrics
      a.answered(204, true, System.nanoTime());
      assertThat(value(worker, "requests-2xx-total", "a", 0)).isEqualTo(2.0);
      assertThat(worker.metric(name(worker, "requests-2xx-total", "b", 0))).isNull();
    }
  }

  @Test
  void theNextInstanceOfATaskStartsWhileThePreviousOneStillHoldsItsMetrics() throws Exception {
    try (Metrics worker = new Metrics()) {
      PluginMetricsImpl previousPlugin = plugin(worker, "ingest", 1);
      TaskMetrics previous = TaskMetrics.of(context(previousPlugin), "ingest", 1, 7);
      previous.gauge("rows-in-flight", "rows", () -> 5);
      previous.answered(204, true, System.nanoTime());

      PluginMetricsImpl nextPlugin = plugin(worker, "ingest", 1);
      TaskMetrics next = TaskMetrics.of(context(nextPlugin), "ingest", 1, 8);
      assertThatCode(() -> next.gauge("rows-in-flight", "rows", () -> 3))
          .doesNotThrowAnyException();
      next.answered(413, true, System.nanoTime());
      previous.answered(204, true, System.nanoTime()); // still answering while it stops

      previous.close();
      previousPlugin.close(); // the worker closes the previous instance's plugin metrics late
      next.answered(413, true, System.nanoTime());

      assertThat(value(worker, "rows-in-flight", "ingest", 1)).isEqualTo(3.0);
      assertThat(value(worker, "requests-2xx-total", "ingest", 1)).isZero();
      assertThat(value(worker, "requests-4xx-total", "ingest", 1)).isEqualTo(2.0);
      assertThat(worker.metric(byStatus(worker, "ingest", 1, 413)).metricValue()).isEqualTo(2.0);

      next.close();
      nextPlugin.close();
      assertThat(worker.metrics().keySet())
          .as("nothing of the task left once its instances stopped")
          .noneMatch(n -> "ingest".equals(n.tags().get("connector")));
    }
  }

  @Test
  void anOlderInstanceThatGetsToItsMetricsLateLeavesTheNewOnesInPlace() throws Exception {
    try (Metrics worker = new Metrics()) {
      PluginMetricsImpl nextPlugin = plugin(worker, "ingest", 0);
      TaskMetrics next = TaskMetrics.of(context(nextPlugin), "ingest", 0, 12);
      next.gauge("rows-in-flight", "rows", () -> 3);

      PluginMetricsImpl stalePlugin = plugin(worker, "ingest", 0);
      TaskMetrics stale = TaskMetrics.of(context(stalePlugin), "ingest", 0, 11);
      stale.gauge("rows-in-flight", "rows", () -> 9);
      stale.answered(204, true, System.nanoTime());
      stale.close();
      stalePlugin.close();

      next.answered(204, true, System.nanoTime());
      assertThat(value(worker, "rows-in-flight", "ingest", 0)).isEqualTo(3.0);
      assertThat(value(worker, "requests-2xx-total", "ingest", 0)).isEqualTo(1.0);
      next.close();
    }
  }

  @Test
  void requestsAreCountedByStatus() throws Exception {
    try (Metrics worker = new Metrics()) {
      TaskMetrics metrics = TaskMetrics.of(context(plugin(worker, "s", 2)), "s", 2, 1);
      for (int status : new int[] {204, 204, 408, 413, 413, 413, 429, 503, 503, 599}) {
        metrics.answered(status, true, System.nanoTime());
      }
      Map<Integer, Double> expected =
          Map.of(204, 2.0, 408, 1.0, 413, 3.0, 429, 1.0, 503, 2.0, 400, 0.0, 500, 0.0);
      expected.forEach(
          (status, count) ->
              assertThat(worker.metric(byStatus(worker, "s", 2, status)).metricValue())
                  .as("requests-total status=" + status)
                  .isEqualTo(count));
      assertThat(worker.metric(byStatus(worker, "s", 2, 599))).isNull();
      assertThat(value(worker, "requests-5xx-total", "s", 2)).isEqualTo(3.0);
      metrics.close();
    }
  }

  private static PluginMetricsImpl plugin(Metrics worker, String connector, int task) {
    return new PluginMetricsImpl(worker, taskTags(connector, task));
  }

  private static Map<String, String> taskTags(String connector, int task) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("connector", connector);
    tags.put("task", Integer.toString(task));
    return tags;
  }

  private static MetricName name(Metrics worker, String metric, String connector, int task) {
    return worker.metricName(metric, "plugins", "", taskTags(connector, task));
  }

  private static MetricName byStatus(Metrics worker, String connector, int task, int status) {
    Map<String, String> tags = taskTags(connector, task);
    tags.put("status", Integer.toString(status));
    return worker.metricName("requests-total", "plugins", "", tags);
  }

  private static double value(Metrics worker, String metric, String connector, int task) {
    return (double) worker.metric(name(worker, metric, connector, task)).metricValue();
  }

  private static SourceTaskContext context(PluginMetrics metrics) {
    return TaskContexts.withPluginMetrics(metrics);
  }
}
