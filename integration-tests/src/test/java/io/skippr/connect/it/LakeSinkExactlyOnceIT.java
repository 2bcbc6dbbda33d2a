package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake holds every produced record exactly once under each rotation policy, read back with
 * DuckDB. One topic of 201,000 orders (nested structs, arrays of structs, maps, nulls, decimals,
 * dates, timestamps) is consumed by four sink connectors, one per rotation policy; a schemaless
 * JSON topic by a fifth. One connector is restarted while it runs.
 */
class LakeSinkExactlyOnceIT {
  private static final int PARTITIONS = 3;
  private static final long PER_PARTITION = 67_000;
  private static final String ORDERS = "orders";
  private static final String ORDERS_JSON = "orders-json";
  private static final Duration DRAIN = Duration.ofMinutes(10);

  @TempDir static Path lakes;
  private static ConnectCluster cluster;

  @BeforeAll
  static void produce() throws Exception {
    cluster = ConnectCluster.start("lake-sink-exactly-once");
    // Order timestamps start in January: with the default 7-day retention the broker would delete
    // the first segments before the sinks read them.
    cluster.kafka().createTopic(ORDERS, PARTITIONS, 1, Map.of("retention.ms", "-1"));
    cluster.kafka().createTopic(ORDERS_JSON, PARTITIONS, 1, Map.of("retention.ms", "-1"));
    JsonConverter withSchemas = new JsonConverter();
    withSchemas.configure(Map.of("schemas.enable", "true", "converter.type", "value"));
    SendFailures failures = new SendFailures();
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (long o = 0; o < PER_PARTITION; o++) {
        for (int p = 0; p < PARTITIONS; p++) {
          byte[] value = withSchemas.fromConnectData(ORDERS, Orders.VALUE, Orders.value(p, o));
          producer.send(
              new ProducerRecord<>(ORDERS, p, Orders.timestamp(o), Orders.key(p, o), value),
              failures);
          byte[] json = Orders.json(p, o).getBytes(StandardCharsets.UTF_8);
          producer.send(
              new ProducerRecord<>(ORDERS_JSON, p, Orders.timestamp(o), Orders.key(p, o), json),
              failures);
        }
      }
      producer.flush();
      assertThat(failures.first.get()).as("a record Kafka did not take").isNull();
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void everyRotationPolicyLandsEveryRecordExactlyOnce() {
    startSink("lake-size", ORDERS, true, Map.of("flush.size", "6700"));
    startSink(
        "lake-bytes",
        ORDERS,
        true,
        Map.of(
            "flush.bytes", String.valueOf(4 * 1024 * 1024),
            "rotate.schedule.interval.ms", "20000",
            "partitioner.class", "field",
            "partition.field.name", "active"));
    startSink(
        "lake-recordtime",
        ORDERS,
        true,
        Map.of(
            "rotate.interval.ms", "60000",
            "rotate.schedule.interval.ms", "20000",
            "partitioner.class", "time",
            "timestamp.extractor", "RecordField",
            "timestamp.field", "ts",
            "partition.duration.ms", "3600000",
            "path.format", "'dt'=yyyy-MM-dd/'hour'=HH"));
    startSink(
        "lake-schedule",
        ORDERS,
        true,
        Map.of("rotate.schedule.interval.ms", "3000", "flush.size", "1000000"));
    startSink(
        "lake-json",
        ORDERS_JSON,
        false,
        Map.of("flush.size", "5000", "rotate.schedule.interval.ms", "10000"));

    DuckDbLake sizeLake = new DuckDbLake(lakes.resolve("lake-size"));
    Await.until(
        DRAIN,
        "lake-size to land a third of the records",
        () -> LakeAudit.rows(sizeLake, ORDERS) >= PARTITIONS * PER_PARTITION / 3);
    cluster.connect().restartConnectorAndTasks("lake-size", false, true, false);

    for (String connector :
        List.of("lake-size", "lake-bytes", "lake-recordtime", "lake-schedule")) {
      assertLake(connector, ORDERS, false);
    }
    assertLake("lake-json", ORDERS_JSON, true);

    for (LakeAudit.Unit unit : LakeAudit.units(sizeLake, ORDERS)) {
      assertThat(unit.end() - unit.start() + 1).as(unit.file()).isEqualTo(6700);
    }
    try (DuckDbLake timeLake = new DuckDbLake(lakes.resolve("lake-recordtime"))) {
      List<LakeAudit.Unit> units = LakeAudit.units(timeLake, ORDERS);
      assertThat(units).hasSizeGreaterThan(PARTITIONS * 10);
      units.forEach(u -> assertThat(u.maxTs() - u.minTs()).as(u.file()).isLessThan(60_000));
    }
    sizeLake.close();
  }

  private static void assertLake(String connector, String topic, boolean schemaless) {
    try (DuckDbLake lake = new DuckDbLake(lakes.resolve(connector))) {
      Await.until(
          DRAIN,
          () ->
              connector
                  + " to land "
                  + PARTITIONS * PER_PARTITION
                  + " rows; has "
                  + LakeAudit.rows(lake, topic)
                  + "; status "
                  + cluster.statusOrError(connector),
          () -> LakeAudit.rows(lake, topic) >= PARTITIONS * PER_PARTITION);
      LakeAudit.assertEveryOffsetOnce(lake, topic, PARTITIONS, PER_PARTITION);
      LakeAudit.assertValues(lake, topic, schemaless);
      LakeAudit.assertUnitsTile(LakeAudit.units(lake, topic), topic, PARTITIONS, PER_PARTITION);
    }
    Await.until(
        Duration.ofMinutes(1),
        connector + " to commit the consumer offsets after the last unit",
        () -> committedOffsets(connector) == PARTITIONS * PER_PARTITION);
  }

  /** Sum over partitions of the offsets the connector committed to Kafka. */
  private static long committedOffsets(String connector) {
    ConnectorOffsets offsets = cluster.connect().connectorOffsets(connector);
    long sum = 0;
    for (ConnectorOffset offset : offsets.offsets()) {
      sum += ((Number) offset.offset().get("kafka_offset")).longValue();
    }
    return sum;
  }

  private static void startSink(
      String name, String topic, boolean withSchemas, Map<String, String> rotation) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    // The test checks how units tile the offsets: merged files would hide them.
    config.put("compaction.enabled", "false");
    config.put("tasks.max", "2");
    config.put("topics", topic);
    config.put("topics.dir", lakes.resolve(name).toString());
    config.put("include.kafka.metadata", "true");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", String.valueOf(withSchemas));
    config.put("errors.tolerance", "none");
    // The progress mirror lives with this test's lakes, not in the module's working directory.
    config.put("store.rocksdb.path", lakes.resolve("state").toString());
    config.putAll(rotation);
    cluster.connect().configureConnector(name, config);
    cluster.awaitRunning(name, 2, Duration.ofMinutes(1));
  }

  /** Keeps the first error a send reports: the test must not wait for records Kafka never took. */
  private static final class SendFailures implements Callback {
    final AtomicReference<Exception> first = new AtomicReference<>();

    @Override
    public void onCompletion(RecordMetadata metadata, Exception e) {
      if (e != null) {
        first.compareAndSet(null, e);
      }
    }
  }
}
