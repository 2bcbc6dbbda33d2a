package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * On a worker without plugin metrics (the harness's context throws like a pre-4.1 worker) the task
 * publishes its metrics over JMX itself, and the counts follow the requests.
 */
class HttpIngestMetricsTest {

  @Test
  void withoutPluginMetricsTheTaskRegistersItsOwnMBean() throws Exception {
    ObjectName name = TaskJmx.name("metrics-test", 3);
    try (TaskHarness h = new TaskHarness(Map.of("name", "metrics-test", "task.index", "3"))) {
      assertThat(ManagementFactory.getPlatformMBeanServer().isRegistered(name)).isTrue();
      assertThat(h.post("/write", "mt v=1i 1\nmt v=2i 2\n").statusCode()).isEqualTo(204);
      assertThat(h.post("/write", "mt v=1.5 3\nmt v=3i 4\n").statusCode()).isEqualTo(400);
      assertThat(h.post("/nope", "").statusCode()).isEqualTo(404);
      assertThat(TaskJmx.metric(name, "requests-2xx-total")).isEqualTo(1);
      assertThat(TaskJmx.metric(name, "requests-4xx-total")).isEqualTo(2);
      assertThat(TaskJmx.metric(name, "requests-5xx-total")).isZero();
      assertThat(TaskJmx.metric(byStatus(name, 204), "requests-total")).isEqualTo(1);
      assertThat(TaskJmx.metric(byStatus(name, 400), "requests-total")).isEqualTo(1);
      assertThat(TaskJmx.metric(byStatus(name, 404), "requests-total")).isEqualTo(1);
      assertThat(TaskJmx.metric(byStatus(name, 413), "requests-total")).isZero();
      assertThat(TaskJmx.metric(name, "rows-accepted-total")).isEqualTo(3);
      assertThat(TaskJmx.metric(name, "rows-rejected-total")).isEqualTo(1);
      assertThat(TaskJmx.metric(name, "bytes-in-total")).isEqualTo(41);
      assertThat(TaskJmx.metric(name, "rows-in-flight")).isZero();
      assertThat(TaskJmx.metric(name, "bytes-in-flight")).isZero();
      double max = TaskJmx.metric(name, "ack-latency-max");
      assertThat(max).isPositive();
      assertThat(TaskJmx.metric(name, "ack-latency-avg")).isPositive().isLessThanOrEqualTo(max);
      assertThat(TaskJmx.metric(name, "ack-latency-p99")).isPositive();
    }
    assertThat(ManagementFactory.getPlatformMBeanServer().isRegistered(name)).isFalse();
    assertThat(ManagementFactory.getPlatformMBeanServer().isRegistered(byStatus(name, 204)))
        .isFalse();
  }

  private static ObjectName byStatus(ObjectName task, int status) throws Exception {
    return new ObjectName(task.getCanonicalName() + ",status=" + status);
  }
}
