package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr compact} maintains a stopped connector's lake offline: refused while the connector
 * runs, then merges its small files through the logs; the connector resumes on the compacted lake
 * and goes on landing every record once.
 */
class CompactCliIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOPIC = "clicks";

  @TempDir static Path dir;
  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster = ConnectCluster.start("compact-cli");
    cluster.createTopic(TOPIC, 1);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void mergesAStoppedConnectorsLakeAndRefusesARunningOne() throws Exception {
    Path lake = dir.resolve("lake");
    cluster.connect().configureConnector("clicks-lake", sink(lake));
    produce(0, 600);
    awaitRows(lake, 600);
    int before = ManifestView.fileCount(lake, TOPIC);
    assertThat(before).as("small units, compaction left to the command").isGreaterThanOrEqualTo(20);

    CliProcess running = compact();
    assertThat(running.awaitExit(Duration.ofMinutes(1))).isEqualTo(1);
    assertThat(running.errorLines())
        .anyMatch(
            line ->
                line.startsWith("skippr compact: clicks-lake is RUNNING")
                    && line.contains("/stop"));

    cluster.connect().stopConnector("clicks-lake");
    Await.until(
        Duration.ofSeconds(60),
        () -> "stopped: " + cluster.statusOrError("clicks-lake"),
        () -> cluster.statusOrError("clicks-lake").contains("STOPPED"));
    CliProcess offline = compact();
    assertThat(offline.awaitExit(Duration.ofMinutes(2))).as(offline.output()).isZero();
    JsonNode report = JSON.readTree(offline.stdout());
    assertThat(report.path("files_merged").asLong()).isEqualTo(before);
    assertThat(ManifestView.fileCount(lake, TOPIC)).isEqualTo(1);
    assertEveryIdOnce(lake, 600);

    cluster.connect().resumeConnector("clicks-lake");
    produce(600, 900);
    awaitRows(lake, 900);
    assertEveryIdOnce(lake, 900);
  }

  private CliProcess compact() throws Exception {
    return CliProcess.start(
        "compact",
        dir.resolve("logs"),
        List.of(
            "compact",
            "--connector",
            "clicks-lake",
            "--connect-url",
            cluster.connect().endpointForResource("").replaceAll("/+$", ""),
            "--output",
            "json"),
        dir,
        Map.of());
  }

  private static void assertEveryIdOnce(Path lake, long n) {
    assertThat(
            ManifestView.query(
                lake, TOPIC, "count(*)::bigint as rows, count(distinct id)::bigint as ids", ""))
        .containsExactly(Map.of("rows", n, "ids", n));
  }

  private static void awaitRows(Path lake, long rows) {
    Await.until(
        Duration.ofMinutes(2),
        () -> rows + " rows",
        () -> {
          List<Map<String, Object>> counted =
              ManifestView.query(lake, TOPIC, "count(*)::bigint as n", "");
          return !counted.isEmpty() && (Long) counted.get(0).get("n") >= rows;
        });
  }

  private static void produce(long from, long to) {
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (long id = from; id < to; id++) {
        String json =
            "{\"id\":"
                + id
                + ",\"page\":{\"path\":\"/p/"
                + id % 9
                + "\"},\"at\":\"2026-12-01T09:00:00Z\"}";
        producer.send(new ProducerRecord<>(TOPIC, 0, null, json.getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
  }

  private static Map<String, String> sink(Path lake) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", TOPIC);
    config.put("topics.dir", lake.toString());
    config.put("store.rocksdb.path", dir.resolve("state").toString());
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("flush.size", "25");
    config.put("rotate.schedule.interval.ms", "1000");
    config.put("compaction.enabled", "false");
    config.put("compaction.grace.ms", "0");
    config.put("errors.tolerance", "none");
    return config;
  }
}
