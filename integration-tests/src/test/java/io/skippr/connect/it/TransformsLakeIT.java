package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schemaless JSON topic goes through InferSchema → NormalizeTimestamp → NamespaceRouter →
 * ValidateContract into the lake sink, in a real worker loading the built plugin: one table per
 * namespace, DuckDB column types as inferred (or as the contract says), and every bad record in the
 * dead letter queue with the reason.
 */
class TransformsLakeIT {
  private static final String TOPIC = "events";
  private static final String DLQ = "events-dlq";
  private static final Duration DRAIN = Duration.ofMinutes(3);
  private static final String TSTZ = "TIMESTAMP WITH TIME ZONE";

  /** The contract of the check-out namespace, describing values after the transforms before it. */
  private static final Schema CHECK_OUT =
      SchemaBuilder.struct()
          .optional()
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("created_at", Timestamp.builder().optional().build())
          .field("id", Schema.INT64_SCHEMA)
          .field(
              "items",
              SchemaBuilder.array(
                      SchemaBuilder.struct()
                          .optional()
                          .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
                          .field("shipped", Timestamp.builder().optional().build())
                          .field("sku", Schema.OPTIONAL_STRING_SCHEMA)
                          .build())
                  .optional()
                  .build())
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("sent", Timestamp.builder().optional().build())
          .field("type", Schema.OPTIONAL_STRING_SCHEMA)
          .field(
              "user",
              SchemaBuilder.struct()
                  .optional()
                  .field("id", Schema.OPTIONAL_INT64_SCHEMA)
                  .field("name", Schema.OPTIONAL_STRING_SCHEMA)
                  .build())
          .build();

  @TempDir static Path dir;
  private static ConnectCluster cluster;

  @BeforeAll
  static void produce() throws Exception {
    cluster = ConnectCluster.start("transforms-lake");
    cluster.createTopic(TOPIC, 1);
    cluster.createTopic(DLQ, 1);
    ObjectMapper json = new ObjectMapper();
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (int i = 0; i < Events.COUNT; i++) {
        byte[] key = String.valueOf(i).getBytes(StandardCharsets.UTF_8);
        producer.send(new ProducerRecord<>(TOPIC, 0, key, json.writeValueAsBytes(Events.value(i))));
      }
      producer.flush();
    }
    new ContractStore(dir.resolve("contracts"))
        .save(
            new PipelineId("acme", "prod", "events"),
            List.of(new Contract("events.check_out", CHECK_OUT)));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void namespacesBecomeTablesWithStableTypesAndBadRecordsGoToTheDeadLetterQueue() {
    startSink();
    try (DuckDbLake lake = new DuckDbLake(dir.resolve("lake"))) {
      for (String table : List.of("events.click", "events.view", "events.check_out")) {
        Await.until(
            DRAIN,
            () -> table + " to land its rows; status " + cluster.statusOrError("events-lake"),
            () -> LakeAudit.rows(lake, table) >= Events.goodRows(table));
        assertThat(LakeAudit.rows(lake, table)).isEqualTo(Events.goodRows(table));
      }
      assertThat(columnTypes(lake, "events.click"))
          .containsAllEntriesOf(inferredTypes())
          .containsEntry("coupon", "VARCHAR");
      assertThat(columnTypes(lake, "events.view"))
          .containsAllEntriesOf(inferredTypes())
          .doesNotContainKey("coupon");
      assertThat(columnTypes(lake, "events.check_out"))
          .containsAllEntriesOf(duckDbTypes(CHECK_OUT))
          .doesNotContainKey("coupon");
      assertValues(lake);
    }
    assertDeadLetters();
  }

  /** What inference plus timestamp normalisation gives the click and view tables. */
  private static Map<String, String> inferredTypes() {
    return Map.of(
        "id", "INTEGER",
        "type", "VARCHAR",
        "sent", TSTZ,
        "created_at", TSTZ,
        "user", "STRUCT(id INTEGER, name VARCHAR)",
        "items", "STRUCT(qty INTEGER, shipped " + TSTZ + ", sku VARCHAR)[]",
        "note", "VARCHAR");
  }

  private static void assertValues(DuckDbLake lake) {
    for (int t = 0; t < 3; t++) {
      String table = "events." + Events.TYPES[t].replace(' ', '_');
      for (Map<String, Object> row :
          lake.query(
              "select __offset o, id, epoch_ms(sent) sent, epoch_ms(created_at) created,"
                  + " user.name uname, items[1].sku sku, epoch_ms(items[1].shipped) shipped,"
                  + " len(items) n, __topic topic from ${table:"
                  + table
                  + "} order by o")) {
        int i = ((Number) row.get("o")).intValue();
        String at = table + " offset " + i;
        assertThat(Events.table(i)).as(at).isEqualTo(table);
        assertThat(((Number) row.get("id")).intValue()).as(at).isEqualTo(i);
        assertThat(((Number) row.get("sent")).longValue())
            .as(at)
            .isEqualTo(Events.sent(i).toEpochMilli());
        assertThat(((Number) row.get("created")).longValue())
            .as(at)
            .isEqualTo(Events.created(i).toEpochMilli());
        assertThat(row.get("uname")).as(at).isEqualTo("u" + i % 7);
        assertThat(row.get("sku")).as(at).isEqualTo("s" + i);
        assertThat(((Number) row.get("shipped")).longValue())
            .as(at)
            .isEqualTo(Events.shippedSeconds(i) * 1000);
        assertThat(((Number) row.get("n")).intValue()).as(at).isEqualTo(i % 2 == 0 ? 2 : 1);
        assertThat(row.get("topic")).as(at).isEqualTo(TOPIC);
      }
    }
    assertThat(lake.count("select count(*) from ${table:events.check_out} where amount = id * 1.5"))
        .isEqualTo(Events.goodRows("events.check_out"));
    assertThat(lake.count("select count(*) from ${table:events.click} where coupon = 'c' || id"))
        .isEqualTo(
            java.util.stream.IntStream.range(0, Events.COUNT)
                .filter(i -> Events.hasCoupon(i) && !Events.BAD.containsKey(i))
                .count());
  }

  private static void assertDeadLetters() {
    List<ConsumerRecord<byte[], byte[]>> records = new java.util.ArrayList<>();
    cluster
        .kafka()
        .consume(Events.BAD.size(), Duration.ofMinutes(1).toMillis(), DLQ)
        .forEach(records::add);
    Map<Integer, String> messages = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      assertThat(header(record, "__connect.errors.topic")).isEqualTo(TOPIC);
      assertThat(header(record, "__connect.errors.stage")).isEqualTo("TRANSFORMATION");
      messages.put(
          Integer.parseInt(header(record, "__connect.errors.offset")),
          header(record, "__connect.errors.exception.message"));
      assertThat(new String(record.key(), StandardCharsets.UTF_8))
          .isEqualTo(header(record, "__connect.errors.offset"));
    }
    assertThat(messages).isEqualTo(new TreeMap<>(Events.BAD));
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    assertThat(header).as(name).isNotNull();
    return new String(header.value(), StandardCharsets.UTF_8);
  }

  private static Map<String, String> columnTypes(DuckDbLake lake, String table) {
    Map<String, String> types = new HashMap<>();
    for (Map<String, Object> row : lake.query("describe select * from ${table:" + table + "}")) {
      types.put(
          (String) row.get("column_name"), ((String) row.get("column_type")).replace("\"", ""));
    }
    return types;
  }

  /** The DuckDB type of each field of a contract schema, as the lake writes it. */
  private static Map<String, String> duckDbTypes(Schema struct) {
    Map<String, String> types = new HashMap<>();
    for (Field field : struct.fields()) {
      types.put(field.name(), duckDbType(field.schema()));
    }
    return types;
  }

  private static String duckDbType(Schema schema) {
    if (Timestamp.LOGICAL_NAME.equals(schema.name())) {
      return TSTZ;
    }
    return switch (schema.type()) {
      case INT32 -> "INTEGER";
      case INT64 -> "BIGINT";
      case FLOAT64 -> "DOUBLE";
      case STRING -> "VARCHAR";
      case ARRAY -> duckDbType(schema.valueSchema()) + "[]";
      case STRUCT -> {
        StringBuilder out = new StringBuilder("STRUCT(");
        for (Field field : schema.fields()) {
          out.append(field.index() == 0 ? "" : ", ")
              .append(field.name())
              .append(' ')
              .append(duckDbType(field.schema()));
        }
        yield out.append(')').toString();
      }
      default -> throw new IllegalArgumentException("not in the contract: " + schema.type());
    };
  }

  private static void startSink() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", TOPIC);
    config.put("topics.dir", dir.resolve("lake").toString());
    config.put("store.rocksdb.path", dir.resolve("state").toString());
    config.put("flush.size", "40");
    config.put("rotate.schedule.interval.ms", "2000");
    config.put("include.kafka.metadata", "true");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("transforms", "infer,time,route,validate");
    config.put("transforms.infer.type", "io.skippr.connect.transforms.InferSchema$Value");
    config.put("transforms.infer.namespace.fields", "type");
    config.put("transforms.time.type", "io.skippr.connect.transforms.NormalizeTimestamp$Value");
    config.put("transforms.time.fields", "sent,items.shipped");
    config.put("transforms.time.formats", Events.SENT_FORMAT);
    config.put("transforms.route.type", "io.skippr.connect.transforms.NamespaceRouter");
    config.put("transforms.route.namespace.fields", "type");
    config.put("transforms.validate.type", "io.skippr.connect.transforms.ValidateContract");
    config.put("transforms.validate.contract.pipeline", "acme/prod/events");
    config.put("transforms.validate.contract.data.dir", dir.resolve("contracts").toString());
    config.put("transforms.validate.contract.missing", "pass");
    config.put("errors.tolerance", "all");
    config.put("errors.deadletterqueue.topic.name", DLQ);
    config.put("errors.deadletterqueue.topic.replication.factor", "1");
    config.put("errors.deadletterqueue.context.headers.enable", "true");
    cluster.connect().configureConnector("events-lake", config);
    cluster.awaitRunning("events-lake", 1, Duration.ofMinutes(1));
  }
}
