package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
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
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * What {@link ComposeTopologyIT} pushes into the stack and expects in the lake: CPU points of a few
 * hosts as line protocol in two requests (lake-sink, partitioned by their time) and orders as JSON
 * through the HTTP ingest source (events.*, lake-sink-events, partitioned by arrival); between the
 * two requests an aborted transaction on the same topic (which a read_committed sink never sees)
 * and one record that is not JSON (which goes to the dead letter queue).
 */
final class StackLoad {
  static final String CPU = "metrics.cpu";
  static final String ORDERS = "events.orders";
  private static final int HOSTS = 12;
  private static final int POINTS_PER_HOST = 50;
  private static final int BATCHES = 2;
  private static final int ORDER_COUNT = 20;
  private static final byte[] NOT_JSON = "{not json".getBytes(StandardCharsets.UTF_8);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private final String bootstrap;
  private final String ingest;
  private final String token;
  private final long start = System.currentTimeMillis() - Duration.ofMinutes(10).toMillis();

  /**
   * @param token the ingest endpoint's auth.token, sent as {@code Authorization: Token <token>}
   */
  StackLoad(String bootstrap, String ingestUrl, String token) {
    this.bootstrap = bootstrap;
    this.ingest = ingestUrl;
    this.token = token;
  }

  /** Rows the ingest endpoint accepts from {@link #pushAll}: every point and every order. */
  static long rowsPushed() {
    return (long) BATCHES * HOSTS * POINTS_PER_HOST + ORDER_COUNT;
  }

  /** Points of {@link #CPU} that must land. */
  static long pointsPushed() {
    return (long) BATCHES * HOSTS * POINTS_PER_HOST;
  }

  void pushAll() throws Exception {
    assertNoContent(post("/write?db=stack&precision=ms", lines(0)));
    int partitions;
    try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
      partitions = producer.partitionsFor(CPU).size();
      producer.send(new ProducerRecord<>(CPU, 0, null, NOT_JSON)).get();
    }
    abortOnEveryPartition(partitions);
    assertNoContent(post("/api/v2/write?bucket=stack&precision=ms", lines(1)));
    assertNoContent(post("/ingest/orders", orders()));
  }

  /** Point {@code i} of host {@code h} in {@code batch}: its time and usage. */
  private long time(int batch, int h, int i) {
    return start + (long) batch * POINTS_PER_HOST * HOSTS + (long) i * HOSTS + h;
  }

  private static double usage(int batch, int h, int i) {
    return (batch * 1000 + h * 50 + i) / 4.0;
  }

  private String lines(int batch) {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < POINTS_PER_HOST; i++) {
      for (int h = 0; h < HOSTS; h++) {
        body.append("cpu,host=h")
            .append(h)
            .append(",batch=b")
            .append(batch)
            .append(" usage=")
            .append(usage(batch, h, i))
            .append(' ')
            .append(time(batch, h, i))
            .append('\n');
      }
    }
    return body.toString();
  }

  private static String orders() {
    List<String> items = new ArrayList<>();
    for (int i = 0; i < ORDER_COUNT; i++) {
      items.add("{\"id\":" + i + ",\"total\":" + (i * 2.5) + "}");
    }
    return "[" + String.join(",", items) + "]";
  }

  /** One valid CPU row on each partition, in a transaction that is aborted. */
  private void abortOnEveryPartition(int partitions) {
    Schema schema =
        SchemaBuilder.struct()
            .field("time", Timestamp.SCHEMA)
            .field("host", Schema.OPTIONAL_STRING_SCHEMA)
            .field("batch", Schema.OPTIONAL_STRING_SCHEMA)
            .field("usage", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .build();
    JsonConverter json = new JsonConverter();
    json.configure(Map.of("schemas.enable", "true"), false);
    try (KafkaProducer<byte[], byte[]> producer =
        producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "compose-topology-aborted"))) {
      producer.initTransactions();
      producer.beginTransaction();
      for (int p = 0; p < partitions; p++) {
        Struct row =
            new Struct(schema)
                .put("time", new Date(start))
                .put("host", "aborted")
                .put("batch", "aborted")
                .put("usage", 1.0);
        byte[] value = json.fromConnectData(CPU, schema, row);
        producer.send(new ProducerRecord<>(CPU, p, start, null, value));
      }
      producer.flush();
      producer.abortTransaction();
    }
  }

  /** True once the lake downloaded to {@code lake} holds as many rows as were pushed. */
  boolean landed(Path lake) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      return LakeAudit.rows(duck, CPU) >= (long) BATCHES * HOSTS * POINTS_PER_HOST
          && LakeAudit.rows(duck, ORDERS) >= ORDER_COUNT;
    }
  }

  void assertLake(DuckDbLake duck, Path lake) throws IOException {
    String cpu = "${table:" + CPU + "}";
    long points = (long) BATCHES * HOSTS * POINTS_PER_HOST;
    assertThat(duck.count("select count(*) from " + cpu)).isEqualTo(points);
    assertThat(duck.count("select count(distinct (__partition, __offset)) from " + cpu))
        .isEqualTo(points);
    assertThat(duck.count("select count(distinct (host, time)) from " + cpu)).isEqualTo(points);
    assertThat(duck.count("select count(*) from " + cpu + " where host = 'aborted'"))
        .as("rows of the aborted transaction")
        .isZero();
    assertThat(duck.count("select count(distinct __partition) from " + cpu + " where batch='b1'"))
        .as("the second request reached every partition, after the aborted rows")
        .isEqualTo(3);
    double expected = 0;
    for (int b = 0; b < BATCHES; b++) {
      for (int h = 0; h < HOSTS; h++) {
        for (int i = 0; i < POINTS_PER_HOST; i++) {
          expected += usage(b, h, i);
        }
      }
    }
    assertThat(duck.query("select sum(usage) s from " + cpu).get(0).get("s")).isEqualTo(expected);
    String orders = "${table:" + ORDERS + "}";
    assertThat(duck.count("select count(*) from " + orders)).isEqualTo(ORDER_COUNT);
    assertThat(duck.count("select count(distinct id) from " + orders)).isEqualTo(ORDER_COUNT);
    for (int p = 0; p < 3; p++) {
      LakeLogAudit.assertNoUnresolvedIntent(LakeLogAudit.entries(lake, CPU, p));
    }
  }

  /**
   * The dead letter queue holds the one record that was not JSON, with the error context. Connect
   * reports an errant record each time a task processes it, so a sink task that re-reads it after a
   * rebalance reports it again: copies are allowed, but all of one origin (topic, partition,
   * offset).
   */
  void assertDeadLetterQueue(String topic) {
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Await.until(
          Duration.ofSeconds(30),
          () -> "a record in " + topic,
          () -> {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            return !records.isEmpty()
                && consumer.endOffsets(partitions).entrySet().stream()
                    .allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
          });
    }
    assertThat(records).isNotEmpty();
    java.util.Set<String> origins = new java.util.HashSet<>();
    for (ConsumerRecord<byte[], byte[]> dead : records) {
      assertThat(dead.value()).isEqualTo(NOT_JSON);
      assertThat(header(dead, "__connect.errors.topic")).as("error context headers").isEqualTo(CPU);
      origins.add(
          header(dead, "__connect.errors.topic")
              + "/"
              + header(dead, "__connect.errors.partition")
              + "/"
              + header(dead, "__connect.errors.offset"));
    }
    assertThat(origins).as("origins of the dead letters").hasSize(1);
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    assertThat(header).as(name).isNotNull();
    return new String(header.value(), StandardCharsets.UTF_8);
  }

  private HttpResponse<String> post(String pathAndQuery, String body)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(ingest + pathAndQuery))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Token " + token)
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static void assertNoContent(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
  }

  private KafkaProducer<byte[], byte[]> producer(Map<String, Object> extra) {
    Map<String, Object> props = new HashMap<>(extra);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private KafkaConsumer<byte[], byte[]> consumer() {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }
}
