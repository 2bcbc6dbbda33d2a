package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake sink's metrics as an operator reads them: over JMX from a running worker, through
 * Connect's plugin metrics (KIP-877).
 */
class LakeSinkMetricsIT {
  private static final Duration LANDED = Duration.ofMinutes(2);
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  @TempDir static Path lake;
  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster = ConnectCluster.start("lake-sink-metrics");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void committedOffsetsLagUnitsMemoryAndMergesAreReadOverJmx() throws Exception {
    cluster.kafka().createTopic("metered", 2, 1, Map.of());
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (int i = 0; i < 400; i++) {
        String json = "{\"id\":" + i + ",\"at\":\"2026-12-01T10:00:00Z\"}";
        producer.send(
            new ProducerRecord<>("metered", i % 2, null, json.getBytes(StandardCharsets.UTF_8)));
      }
    }
    cluster
        .connect()
        .configureConnector(
            "metered-lake",
            Map.of(
                "connector.class", "io.skippr.connect.sink.LakeSinkConnector",
                "topics", "metered",
                "topics.dir", lake.toString(),
                "flush.size", "50",
                "compaction.min.files", "2",
                "compaction.interval.ms", "500",
                "state.mirror", "off",
                "key.converter", "org.apache.kafka.connect.storage.StringConverter",
                "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable", "false"));

    ObjectName partition0 = plugin("topic", "metered", "partition", "0");
    Await.until(
        LANDED,
        () -> "committed-offset 199 of metered-0 over JMX; beans: " + beans(),
        () -> number(partition0, "committed-offset") == 199);
    ObjectName task = taskBean();
    assertThat(number(plugin("topic", "metered", "partition", "1"), "committed-offset"))
        .isEqualTo(199);
    assertThat(number(partition0, "lag-records")).isZero();
    assertThat(number(task, "units-committed-total")).isEqualTo(8);
    assertThat(number(task, "rows-committed-total")).isEqualTo(400);
    assertThat(number(task, "files-committed-total")).isEqualTo(8);
    assertThat(number(task, "bytes-committed-total")).isPositive();
    assertThat(number(task, "commit-latency-max")).isGreaterThanOrEqualTo(0);
    Await.until(
        LANDED,
        "buffered-bytes 0 once the task settled its last unit",
        () -> number(task, "buffered-bytes") == 0);
    assertThat(number(task, "memory-pauses-total")).isZero();
    // Maintenance merges each partition's 4 units, at once or in steps: 8 files become 2.
    Await.until(
        LANDED,
        () -> "8 files merged into 2 over JMX; beans: " + beans(),
        () ->
            number(task, "merge-input-files-total") - number(task, "merge-output-files-total")
                == 6);
    assertThat(number(task, "merges-committed-total"))
        .isEqualTo(number(task, "merge-output-files-total"))
        .isBetween(2.0, 6.0);
    assertThat(number(task, "merge-input-bytes-total")).isPositive();
    assertThat(number(task, "merge-output-bytes-total")).isPositive();
    assertThat(number(task, "merges-abandoned-total")).isZero();
    assertThat(number(task, "retired-files"))
        .as("the inputs wait out compaction.grace.ms (10 min)")
        .isEqualTo(number(task, "merge-input-files-total"));
    assertThat(number(task, "retired-files-deleted-total")).isZero();
    assertThat(number(task, "files-expired-total")).isZero();
    Await.until(
        LANDED,
        "the two merged files in the table (placed right after their commit)",
        () -> parquetFiles(lake.resolve("metered")) == 2);
    cluster.connect().deleteConnector("metered-lake");
  }

  /** The plugin metrics bean of the connector's task with these extra tags. */
  private static ObjectName plugin(String... tags) throws Exception {
    StringBuilder name =
        new StringBuilder("kafka.connect:type=plugins,connector=metered-lake,task=0");
    for (int i = 0; i < tags.length; i += 2) {
      name.append(',').append(tags[i]).append('=').append(tags[i + 1]);
    }
    return new ObjectName(name.toString());
  }

  private static ObjectName taskBean() throws Exception {
    return plugin();
  }

  private static double number(ObjectName bean, String attribute) {
    try {
      return ((Number) JMX.getAttribute(bean, attribute)).doubleValue();
    } catch (Exception e) {
      return Double.NaN;
    }
  }

  private static long parquetFiles(Path table) {
    try (Stream<Path> files = Files.walk(table)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Set<ObjectName> beans() {
    try {
      return JMX.queryNames(new ObjectName("kafka.connect:type=plugins,*"), null);
    } catch (Exception e) {
      return Set.of();
    }
  }
}
