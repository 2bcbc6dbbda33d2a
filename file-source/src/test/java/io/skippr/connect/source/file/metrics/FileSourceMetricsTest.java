package io.skippr.connect.source.file.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.common.metrics.MetricOwners;
import io.skippr.connect.testkit.TaskContexts;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.junit.jupiter.api.Test;

class FileSourceMetricsTest {

  /** Two tasks on one worker: plugin metrics of one registry, as Connect's are. */
  @Test
  void twoTasksOnOneWorkerCountTheirOwnRecords() throws Exception {
    try (Metrics worker = new Metrics()) {
      PluginMetricsImpl first = new PluginMetricsImpl(worker, tags(0));
      PluginMetricsImpl second = new PluginMetricsImpl(worker, tags(1));
      FileSourceMetrics zero = FileSourceMetrics.of(context(first), MetricOwners.nextInstance());
      FileSourceMetrics one = FileSourceMetrics.of(context(second), MetricOwners.nextInstance());
      zero.read(100, 2);
      one.read(10, 1);
      one.read(10, 1);
      assertThat(value(worker, "records-read-total", 0)).isEqualTo(2.0);
      assertThat(value(worker, "records-read-total", 1)).isEqualTo(2.0);
      assertThat(value(worker, "bytes-read-total", 0)).isEqualTo(100.0);
      assertThat(value(worker, "bytes-read-total", 1)).isEqualTo(20.0);
      second.close(); // task 1 stopped: task 0 keeps counting
      zero.read(1, 1);
      assertThat(value(worker, "records-read-total", 0)).isEqualTo(3.0);
    }
  }

  private static Map<String, String> tags(int task) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("connector", "files");
    tags.put("task", Integer.toString(task));
    return tags;
  }

  private static double value(Metrics worker, String metric, int task) {
    MetricName name = worker.metricName(metric, "plugins", "", tags(task));
    return (double) worker.metric(name).metricValue();
  }

  private static SourceTaskContext context(PluginMetrics metrics) {
    return TaskContexts.withPluginMetrics(metrics);
  }

  /** A worker older than KIP-877: its context has no pluginMetrics() to call. */
  @Test
  void aWorkerWithoutPluginMetricsLeavesTheCountersUnpublished() {
    SourceTaskContext old =
        TaskContexts.withPluginMetrics(
            () -> {
              throw new AbstractMethodError("pluginMetrics");
            });
    FileSourceMetrics metrics = FileSourceMetrics.of(old, MetricOwners.nextInstance());
    metrics.read(100, 2);
    metrics.rejected();
    metrics.completed();
    metrics.gauge("files-open", "open", () -> 1);
    metrics.lag("id", "a.log", () -> 5);
    metrics.forgetLag("id");
    assertThat(metrics.completedCount()).isEqualTo(1);
  }
}
