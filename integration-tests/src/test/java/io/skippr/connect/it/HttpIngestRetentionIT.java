package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Points stamped a year ago, written through HTTP ingest into a topic with one day of retention and
 * two-second segments, survive segment rolls and retention checks — their records carry the time
 * they arrived — until the lake has them. A control topic with the same settings, written with the
 * same old timestamps by a plain producer, loses its first segment to the same retention check: the
 * check ran while the ingest topic kept everything.
 */
class HttpIngestRetentionIT {

  private static final String TOPIC = "retention.old";
  private static final String CONTROL = "control-old";
  private static final Map<String, String> TOPIC_CONFIG =
      Map.of("retention.ms", Long.toString(TimeUnit.DAYS.toMillis(1)), "segment.ms", "2000");

  @TempDir static Path dir;
  private static ConnectCluster cluster;
  private static HttpIngest ingest;

  @BeforeAll
  static void start() throws Exception {
    cluster =
        ConnectCluster.start(
            "http-ingest-retention-it",
            1,
            Map.of(),
            Map.of("log.retention.check.interval.ms", "1000", "log.segment.delete.delay.ms", "0"));
    Map<String, String> overrides = new HashMap<>();
    overrides.put("topic.prefix", "retention.");
    TOPIC_CONFIG.forEach((k, v) -> overrides.put("topic.creation.default." + k, v));
    ingest = new HttpIngest(cluster, overrides);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void oldPointsOutliveRetentionUntilTheLakeHasThem() throws Exception {
    long yearAgo = Instant.now().minus(Duration.ofDays(365)).getEpochSecond();
    try (Admin admin = cluster.kafka().createAdminClient();
        KafkaProducer<byte[], byte[]> control = cluster.bulkProducer()) {
      admin
          .createTopics(List.of(new NewTopic(CONTROL, 1, (short) 1).configs(TOPIC_CONFIG)))
          .all()
          .get();
      int[] written = {0};
      // Writes keep both topics appending, which rolls their segments every two seconds.
      Await.until(
          Duration.ofMinutes(2),
          "the retention check to delete the control topic's first segment",
          new Throttled(
              Duration.ofMillis(500),
              () -> {
                long t = yearAgo + written[0];
                assertThat(post("old,host=a v=" + written[0] + "i " + t)).isEqualTo(204);
                control.send(
                    new ProducerRecord<>(
                        CONTROL,
                        0,
                        t * 1000,
                        null,
                        ("old v=" + written[0]).getBytes(StandardCharsets.UTF_8)));
                control.flush();
                written[0]++;
                return earliest(admin, CONTROL) > 0;
              }));
      assertThat(earliest(admin, TOPIC))
          .as("records of the ingest topic deleted by the retention check")
          .isZero();

      Path lake = dir.resolve("lake");
      cluster.connect().configureConnector("retention-lake", sinkConfig(lake));
      try (DuckDbLake duck = new DuckDbLake(lake)) {
        Await.until(
            Duration.ofMinutes(2),
            "the lake to hold all " + written[0] + " points",
            new Throttled(
                Duration.ofSeconds(1),
                () ->
                    duck.hasFiles(TOPIC)
                        && duck.count("select count(*) from ${table:" + TOPIC + "}")
                            == written[0]));
        assertThat(duck.count("select count(distinct time_ns) from ${table:" + TOPIC + "}"))
            .isEqualTo(written[0]);
        assertThat(
                duck.count(
                    "select count(*) from ${table:"
                        + TOPIC
                        + "} where time < now() - interval 300 days"))
            .as("points a year old, partitioned by their time")
            .isEqualTo(written[0]);
      }
      assertThat(earliest(admin, TOPIC)).isZero();
      System.out.printf(
          "retention: %d points a year old kept past segment rolls and retention checks (the"
              + " control topic lost records up to offset %d)%n",
          written[0], earliest(admin, CONTROL));
    }
  }

  private static int post(String line) {
    try {
      return ingest.post("/write?precision=s", line).statusCode();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static long earliest(Admin admin, String topic) {
    try {
      TopicPartition tp = new TopicPartition(topic, 0);
      return admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).all().get().get(tp).offset();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> sinkConfig(Path lake) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", TOPIC);
    config.put("topics.dir", lake.toString());
    config.put("partitioner.class", "time");
    config.put("timestamp.extractor", "RecordField");
    config.put("timestamp.field", "time");
    config.put("path.format", "'dt'=YYYY-MM-dd");
    config.put("flush.size", "1000");
    config.put("rotate.schedule.interval.ms", "1000");
    config.put("store.rocksdb.path", lake.resolveSibling("lake-state").toString());
    config.put("consumer.override.isolation.level", "read_committed");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    return config;
  }
}
