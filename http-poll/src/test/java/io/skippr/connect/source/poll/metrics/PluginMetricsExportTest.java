package io.skippr.connect.source.poll.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.common.metrics.MetricOwners;
import io.skippr.connect.testkit.TaskContexts;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.junit.jupiter.api.Test;

/** Instances of one task that overlap on a worker, as when Connect gives up waiting for a stop. */
class PluginMetricsExportTest {

  @Test
  void theNextInstanceTakesTheMetricsOverAndTheOldOneLeavesThemInPlace() throws Exception {
    try (Metrics worker = new Metrics()) {
      PluginMetricsImpl oldPlugin = new PluginMetricsImpl(worker, tags());
      PollMetrics old =
          new PollMetrics(
              PluginMetricsExport.of(context(oldPlugin), MetricOwners.nextInstance()), () -> 0);
      old.request("orders", 200);
      old.request("orders", 200);

      PluginMetricsImpl nextPlugin = new PluginMetricsImpl(worker, tags());
      PollMetrics next =
          new PollMetrics(
              PluginMetricsExport.of(context(nextPlugin), MetricOwners.nextInstance()), () -> 0);
      next.request("orders", 200);
      assertThat(requests(worker)).isEqualTo(1.0);

      old.request("orders", 200); // still polling while it stops
      old.close();
      oldPlugin.close();
      assertThat(requests(worker)).isEqualTo(1.0);

      next.close();
      nextPlugin.close();
      assertThat(worker.metrics().keySet())
          .noneMatch(n -> "poll".equals(n.tags().get("connector")));
    }
  }

  private static double requests(Metrics worker) {
    Map<String, String> tags = tags();
    tags.put("endpoint", "orders");
    tags.put("status", "200");
    KafkaMetric metric =
        worker.metric(worker.metricName(PollMetrics.REQUESTS, "plugins", "", tags));
    assertThat(metric).isNotNull();
    return ((Number) metric.metricValue()).doubleValue();
  }

  private static Map<String, String> tags() {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("connector", "poll");
    tags.put("task", "0");
    return tags;
  }

  private static SourceTaskContext context(PluginMetrics metrics) {
    return TaskContexts.withPluginMetrics(metrics);
  }
}
