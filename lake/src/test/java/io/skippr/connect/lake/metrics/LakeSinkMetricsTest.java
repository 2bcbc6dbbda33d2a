package io.skippr.connect.lake.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

/** On a worker without plugin metrics (older than Kafka 4.1) the metrics go to JMX of their own. */
class LakeSinkMetricsTest {
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  /** A context of an older worker: it has no pluginMetrics method to call. */
  private static SinkTaskContext olderWorker() {
    return (SinkTaskContext)
        Proxy.newProxyInstance(
            SinkTaskContext.class.getClassLoader(),
            new Class<?>[] {SinkTaskContext.class},
            (proxy, method, args) -> {
              throw new AbstractMethodError(method.getName());
            });
  }

  private static Object attribute(String bean, String name) throws Exception {
    return JMX.getAttribute(new ObjectName(bean), name);
  }

  @Test
  void anOlderWorkerStillGetsTheMetricsOverJmx() throws Exception {
    try (LakeSinkMetrics metrics = LakeSinkMetrics.of(olderWorker(), "old-lake", "task-7")) {
      LakeSinkMetrics.Tp tp = metrics.open(new TopicPartition("orders", 3));
      tp.delivered(41);
      tp.committed(29);
      metrics.committed(2, 30, 4096, 12);
      metrics.gauge("buffered-bytes", "Bytes buffered", () -> 1234);
      metrics.count("merges-committed", "Merges committed", () -> 3);

      String task = "kafka.connect.skippr:type=lake-sink,connector=old-lake,task=task-7";
      assertThat(attribute(task, "units-committed-total")).isEqualTo(1.0);
      assertThat(attribute(task, "rows-committed-total")).isEqualTo(30.0);
      assertThat(attribute(task, "files-committed-total")).isEqualTo(2.0);
      assertThat(attribute(task, "commit-latency-max")).isEqualTo(12.0);
      assertThat(attribute(task, "buffered-bytes")).isEqualTo(1234.0);
      assertThat(attribute(task, "merges-committed-total")).isEqualTo(3.0);
      String partition = task + ",topic=orders,partition=3";
      assertThat(attribute(partition, "committed-offset")).isEqualTo(29.0);
      assertThat(attribute(partition, "lag-records")).isEqualTo(12.0);

      metrics.close(new TopicPartition("orders", 3));
      assertThat(JMX.isRegistered(new ObjectName(partition))).isFalse();
    }
  }
}
