package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming JSON converter in a real worker, loaded from the built plugin (service_load) as the
 * lake sink's key, value and header converter: records written by Kafka's JsonConverter (envelopes
 * as values, plain JSON as keys and headers) land as rows, and a record Kafka's converter would
 * read as another value (300 in an int8) goes to the dead letter queue with the reason while every
 * other record lands.
 */
class StreamingJsonConverterIT {
  private static final String CONVERTER = "io.skippr.connect.json.StreamingJsonConverter";
  private static final String TOPIC = "jsonevents";
  private static final String DLQ = "jsonevents-dlq";
  private static final int COUNT = 600;
  private static final int POISONED = 250;
  private static final Duration LANDED = Duration.ofMinutes(2);
  private static final Schema USER =
      SchemaBuilder.struct().field("name", Schema.STRING_SCHEMA).build();
  private static final Schema EVENT =
      SchemaBuilder.struct()
          .name("event")
          .field("id", Schema.INT64_SCHEMA)
          .field("user", USER)
          .field("level", Schema.INT8_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("ok", Schema.BOOLEAN_SCHEMA)
          .field("at", Schema.STRING_SCHEMA)
          .build();

  @TempDir static Path dir;
  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster = ConnectCluster.start("streaming-json");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void keysValuesAndHeadersLandAndALossyRecordGoesToTheDeadLetterQueue() throws Exception {
    cluster.createTopic(TOPIC, 1);
    byte[] poisoned = produce();
    cluster.connect().configureConnector("json-lake", sinkConfig());
    cluster.awaitRunning("json-lake", 1, Duration.ofMinutes(1));

    Path lake = dir.resolve("lake");
    Await.until(
        LANDED,
        () -> "all rows but the poisoned one; connector: " + cluster.statusOrError("json-lake"),
        new Throttled(Duration.ofSeconds(1), () -> rows(lake, "count(*)") == COUNT - 1));

    long expectedIds = (long) COUNT * (COUNT - 1) / 2 - POISONED;
    assertThat(rows(lake, "sum(id)")).isEqualTo(expectedIds);
    assertThat(rows(lake, "count(*) filter (where id = " + POISONED + ")")).isZero();
    assertThat(rows(lake, "sum(level)")).isEqualTo(levels() - level(POISONED));
    assertThat(rows(lake, "count(*) filter (where \"user\".name = 'user-' || id)"))
        .isEqualTo(COUNT - 1);

    List<ConsumerRecord<byte[], byte[]>> dead = new ArrayList<>();
    cluster.kafka().consume(1, LANDED.toMillis(), DLQ).forEach(dead::add);
    assertThat(dead).hasSize(1);
    assertThat(dead.get(0).value()).isEqualTo(poisoned);
    assertThat(header(dead.get(0), "__connect.errors.stage")).isEqualTo("VALUE_CONVERTER");
    assertThat(header(dead.get(0), "__connect.errors.exception.message"))
        .contains("Invalid JSON number for INT8 at /level: out of range");
    cluster.connect().deleteConnector("json-lake");
  }

  /** Writes the records as Kafka's converter does; returns the poisoned record's value. */
  private static byte[] produce() throws Exception {
    JsonConverter envelopes = new JsonConverter();
    envelopes.configure(Map.of("schemas.enable", "true"), false);
    JsonConverter plain = new JsonConverter();
    plain.configure(Map.of("schemas.enable", "false"), true);
    byte[] poisoned = null;
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (int i = 0; i < COUNT; i++) {
        byte[] value = envelopes.fromConnectData(TOPIC, EVENT, event(i));
        if (i == POISONED) {
          String text = new String(value, StandardCharsets.UTF_8);
          value =
              text.replace("\"level\":" + level(i), "\"level\":300")
                  .getBytes(StandardCharsets.UTF_8);
          poisoned = value;
        }
        ProducerRecord<byte[], byte[]> record =
            new ProducerRecord<>(TOPIC, plain.fromConnectData(TOPIC, null, Map.of("k", i)), value);
        record.headers().add("trace", plain.fromConnectData(TOPIC, null, "trace-" + i));
        producer.send(record);
      }
    }
    return poisoned;
  }

  private static Struct event(int i) {
    return new Struct(EVENT)
        .put("id", (long) i)
        .put("user", new Struct(USER).put("name", "user-" + i))
        .put("level", level(i))
        .put("amount", i / 4.0)
        .put("ok", i % 3 == 0)
        .put("at", "2026-12-01T10:00:00." + String.format(Locale.ROOT, "%03d", i % 1000) + "Z");
  }

  private static byte level(int i) {
    return (byte) (i % 100);
  }

  private static long levels() {
    long sum = 0;
    for (int i = 0; i < COUNT; i++) {
      sum += level(i);
    }
    return sum;
  }

  private static Map<String, String> sinkConfig() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("topics", TOPIC);
    config.put("topics.dir", dir.resolve("lake").toString());
    config.put("flush.size", "100");
    config.put("rotate.schedule.interval.ms", "2000");
    config.put("state.mirror", "off");
    config.put("key.converter", CONVERTER);
    config.put("key.converter.schemas.enable", "false");
    config.put("value.converter", CONVERTER);
    config.put("value.converter.schemas.enable", "true");
    config.put("header.converter", CONVERTER);
    config.put("header.converter.schemas.enable", "false");
    config.put("errors.tolerance", "all");
    config.put("errors.deadletterqueue.topic.name", DLQ);
    config.put("errors.deadletterqueue.topic.replication.factor", "1");
    config.put("errors.deadletterqueue.context.headers.enable", "true");
    return config;
  }

  private static long rows(Path lake, String aggregate) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      if (!duck.hasFiles(TOPIC)) {
        return 0;
      }
      return duck.count("select " + aggregate + " from ${table:" + TOPIC + "}");
    }
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    assertThat(header).as(name).isNotNull();
    return new String(header.value(), StandardCharsets.UTF_8);
  }
}
