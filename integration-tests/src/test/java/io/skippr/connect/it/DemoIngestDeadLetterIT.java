package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's pipeline ({@code skippr local --demo}) with a row its lake sink cannot hold: an order
 * whose {@code order_id} is text where the table holds numbers, written to the stream's topic by
 * another producer (HTTP ingest itself refuses such a row at the door). The row goes to the demo's
 * dead letter queue with the reason, and every table keeps landing the rows pushed after it.
 */
class DemoIngestDeadLetterIT {
  private static final Duration DEMO = Duration.ofMinutes(4);
  private static final Duration LANDED = Duration.ofMinutes(2);
  private static final String DONE = "skippr local: demo: done";
  private static final String ORDERS = "demo.events.orders";
  private static final String CPU = "demo.cpu";
  private static final String DLQ = "demo-dlq";
  private static final byte[] CONFLICTING =
      "{\"schema\":null,\"payload\":{\"order_id\":\"not-a-number\",\"run\":\"conflict\"}}"
          .getBytes(StandardCharsets.UTF_8);

  @TempDir Path dataDir;
  @TempDir Path logs;

  @Test
  void aRowTheLakeCannotHoldGoesToTheDeadLetterQueueAndEveryTableKeepsLanding() throws Exception {
    int[] ports = FreePorts.take(4);
    String bootstrap = "127.0.0.1:" + ports[0];
    String ingest = "http://127.0.0.1:" + ports[3];
    CliProcess demo =
        CliProcess.startLocal(
            "demo",
            logs,
            List.of(
                "--data-dir=" + dataDir,
                "--kafka-port=" + ports[0],
                "--controller-port=" + ports[1],
                "--rest-port=" + ports[2],
                "--ingest-port=" + ports[3],
                "--demo"));
    try {
      Await.until(
          DEMO,
          () -> "the demo to finish; output so far:\n" + demo.output(),
          () -> {
            if (!demo.isAlive()) {
              throw new AssertionError("demo exited early:\n" + demo.output());
            }
            return demo.output().contains(DONE);
          });
      try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
        producer.send(new ProducerRecord<>(ORDERS, null, CONFLICTING)).get();
      }
      post(ingest + "/write?precision=s", cpuRows(100));
      post(ingest + "/ingest/orders", orders(50));

      Path lake = dataDir.resolve("lake");
      Await.until(
          LANDED,
          () -> "the rows pushed after the conflicting one; output:\n" + demo.output(),
          new Throttled(
              Duration.ofSeconds(1),
              () -> rowsOfRun(lake, CPU) == 100 && rowsOfRun(lake, ORDERS) == 50));

      ConsumerRecord<byte[], byte[]> dead = onlyRecord(bootstrap, DLQ);
      assertThat(dead.value()).isEqualTo(CONFLICTING);
      assertThat(header(dead, "__connect.errors.topic")).isEqualTo(ORDERS);
      assertThat(header(dead, "__connect.errors.exception.message"))
          .contains("order_id")
          .contains("string");
      assertThat(rowsOfRun(lake, ORDERS, "conflict")).isZero();
      System.out.printf(
          "demo dead letter: %s -> %s (%s)%n",
          ORDERS, DLQ, header(dead, "__connect.errors.exception.message"));
    } finally {
      demo.stop();
    }
  }

  private static long rowsOfRun(Path lake, String table) {
    return rowsOfRun(lake, table, "after");
  }

  private static long rowsOfRun(Path lake, String table, String run) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      return duck.count("select count(*) from ${table:" + table + "} where run = '" + run + "'");
    }
  }

  private static String cpuRows(int count) {
    StringBuilder body = new StringBuilder();
    long now = System.currentTimeMillis() / 1000;
    for (int i = 0; i < count; i++) {
      body.append("cpu,host=host-0")
          .append(i % 3 + 1)
          .append(",region=eu-west,run=after usage_user=")
          .append(i)
          .append(".5,usage_system=1.0 ")
          .append(now - i)
          .append('\n');
    }
    return body.toString();
  }

  private static String orders(int count) {
    List<String> items = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      items.add(
          "{\"order_id\":"
              + (100_000 + i)
              + ",\"run\":\"after\",\"customer\":\"customer-001\",\"country\":\"DE\","
              + "\"amount\":9.5,\"items\":1,\"paid\":true,"
              + "\"ordered_at\":\"2026-01-01T00:00:00.000Z\"}");
    }
    return "[" + String.join(",", items) + "]";
  }

  private static void post(String url, String body) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(204);
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  /** The topic's one record, read committed from its beginning to its end. */
  private static ConsumerRecord<byte[], byte[]> onlyRecord(String bootstrap, String topic) {
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Await.until(
          Duration.ofSeconds(30),
          () -> "the records of " + topic,
          () -> {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            return !records.isEmpty()
                && consumer.endOffsets(partitions).entrySet().stream()
                    .allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
          });
    }
    assertThat(records).hasSize(1);
    return records.get(0);
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    assertThat(header).as(name).isNotNull();
    return new String(header.value(), StandardCharsets.UTF_8);
  }
}
