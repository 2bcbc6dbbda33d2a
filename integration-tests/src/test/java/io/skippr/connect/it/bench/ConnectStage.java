package io.skippr.connect.it.bench;

import io.skippr.connect.testkit.ConnectCluster;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * One sink connector consuming a pre-filled single-partition topic with one task, timed from the
 * task's first delivered batch (the worker's {@code sink-record-read-total} metric turning
 * non-zero) until the connector's consumer group has committed the topic's end offset.
 */
final class ConnectStage {
  static final String NOOP = NoopSinkConnector.class.getName();
  static final String LAKE = "io.skippr.connect.sink.LakeSinkConnector";

  private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();
  private static final com.sun.management.OperatingSystemMXBean CPU =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final Duration TIMEOUT = Duration.ofMinutes(15);

  private final ConnectCluster cluster;
  private final Admin admin;
  private final Path lakes;
  private final Map<String, String> lakeSettings;
  private int runs;

  /** {@code lakeSettings} are added to the lake sink's configuration (e.g. write.async). */
  ConnectStage(ConnectCluster cluster, Path lakes, Map<String, String> lakeSettings) {
    this.cluster = cluster;
    this.admin = cluster.kafka().createAdminClient();
    this.lakes = lakes;
    this.lakeSettings = Map.copyOf(lakeSettings);
  }

  /**
   * What one run measured: rows per second, and rows per CPU-second of this whole JVM (broker,
   * worker, consumer and task alike), which a busy machine disturbs less.
   */
  record Figures(double rowsPerSecond, double rowsPerCpuSecond) {}

  /** One run through {@code connectorClass} with JsonConverter as configured. */
  Figures run(String connectorClass, String topic, long rows, boolean schemas) throws Exception {
    String name = (connectorClass.equals(NOOP) ? "noop-" : "lake-") + ++runs;
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", connectorClass);
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", Boolean.toString(schemas));
    config.put("errors.tolerance", "none");
    if (connectorClass.equals(LAKE)) {
      config.put("topics.dir", lakes.resolve(name).toString());
      config.put("store.rocksdb.path", lakes.resolve(name + "-state").toString());
      config.put("flush.size", Long.toString(Math.max(1, rows / 10)));
      config.putAll(lakeSettings);
    }
    ObjectName metrics =
        new ObjectName("kafka.connect:type=sink-task-metrics,connector=" + name + ",task=0");
    cluster.connect().configureConnector(name, config);
    try {
      return measure(name, metrics, new TopicPartition(topic, 0), rows);
    } finally {
      cluster.connect().deleteConnector(name);
      awaitGone(metrics);
      LakeSinkBench.delete(lakes.resolve(name));
      LakeSinkBench.delete(lakes.resolve(name + "-state"));
    }
  }

  private Figures measure(String name, ObjectName metrics, TopicPartition tp, long rows)
      throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    long start = 0;
    long startCpu = 0;
    long nextOffsetCheck = 0;
    while (System.nanoTime() < deadline) {
      long now = System.nanoTime();
      if (start == 0 && readTotal(metrics) > 0) {
        start = now;
        startCpu = CPU.getProcessCpuTime();
      }
      if (start != 0 && now >= nextOffsetCheck) {
        nextOffsetCheck = now + TimeUnit.MILLISECONDS.toNanos(20);
        if (committed(name, tp) >= rows) {
          double cpuSeconds = (CPU.getProcessCpuTime() - startCpu) / 1e9;
          return new Figures(rows / ((System.nanoTime() - start) / 1e9), rows / cpuSeconds);
        }
      }
      Thread.sleep(2);
    }
    throw new IllegalStateException(
        name + " did not commit " + rows + " rows in time; status " + cluster.statusOrError(name));
  }

  private long committed(String name, TopicPartition tp) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin
            .listConsumerGroupOffsets("connect-" + name)
            .partitionsToOffsetAndMetadata()
            .get(10, TimeUnit.SECONDS);
    OffsetAndMetadata offset = offsets.get(tp);
    return offset == null ? -1 : offset.offset();
  }

  private static double readTotal(ObjectName metrics) throws Exception {
    try {
      return ((Number) MBEANS.getAttribute(metrics, "sink-record-read-total")).doubleValue();
    } catch (InstanceNotFoundException e) {
      return 0;
    }
  }

  /** Waits until the task's metrics are gone: the task stopped and left the group. */
  private static void awaitGone(ObjectName metrics) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (MBEANS.isRegistered(metrics) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  void close() {
    admin.close();
  }
}
