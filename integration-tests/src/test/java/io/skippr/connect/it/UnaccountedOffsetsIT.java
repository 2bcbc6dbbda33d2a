package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.DynaliteServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Offsets the lake cannot account for are never skipped silently, on a real broker and worker: a
 * mirror written for another lake, a deleted and recreated topic, records that expired from Kafka
 * before they landed, and an offset reset through the REST API. Each fails the task (or the REST
 * call) with a message by default, and lands exactly what Kafka has as a new generation when {@code
 * behavior.on.offset.discontinuity=new_generation}. DuckDB reads every lake back.
 */
class UnaccountedOffsetsIT {
  private static final Duration LANDED = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path lakes;
  private static ConnectCluster cluster;
  private static Admin admin;

  @BeforeAll
  static void start() {
    cluster = ConnectCluster.start("unaccounted-offsets");
    admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void progressMirroredForAnotherLakeIsNeverUsedToSkipRecords() throws Exception {
    try (DynaliteServer dynalite = DynaliteServer.start()) {
      Map<String, String> store =
          Map.of(
              "state.mirror", "on",
              "store.type", "dynamodb",
              "store.name", "skippr-state",
              "store.dynamodb.endpoint", dynalite.endpoint().toString(),
              "store.dynamodb.region", "us-east-1",
              "store.dynamodb.create.table", "true");
      createTopic("many", 3);
      produce("many", 3, 200, 1);
      Path lakeA = lakes.resolve("a");
      configure("many-lake", "many", lakeA, store);
      awaitRows(lakeA, "many", 600);
      cluster.connect().deleteConnector("many-lake");

      // A new lake where the same connector lands a new topic of the same name from its start.
      recreateTopic("many", 3);
      deleteGroupOf("many-lake");
      produce("many", 3, 500, 2);
      Path lakeB = lakes.resolve("b");
      configure("many-lake", "many", lakeB, store);
      awaitRows(lakeB, "many", 1500);
      try (DuckDbLake lake = new DuckDbLake(lakeB)) {
        assertThat(lake.count("select count(distinct p || '/' || seq) from " + lake.table("many")))
            .isEqualTo(1500);
      }
      String lakeBId =
          JSON.readTree(lakeB.resolve("_skippr/lake.json").toFile()).get("id").asText();
      String lakeAId =
          JSON.readTree(lakeA.resolve("_skippr/lake.json").toFile()).get("id").asText();
      assertThat(lakeBId).isNotEqualTo(lakeAId);
      for (int p = 0; p < 3; p++) {
        JsonNode row = progressRow(dynalite, "many-lake", "many/" + p);
        assertThat(row.get("lake_id").asText()).as("partition %d", p).isEqualTo(lakeBId);
        assertThat(row.get("end_offset").asLong()).isEqualTo(499);
      }
      cluster.connect().deleteConnector("many-lake");
    }
  }

  @Test
  void aRecreatedTopicFailsTheTaskThenLandsAsANewGeneration() throws Exception {
    createTopic("rt", 3);
    produce("rt", 3, 1000, 1);
    Path lake = lakes.resolve("rt");
    configure("rt-lake", "rt", lake, Map.of());
    awaitRows(lake, "rt", 3000);

    recreateTopic("rt", 3);
    produce("rt", 3, 700, 2);
    String trace = awaitFailedTask("rt-lake");
    assertThat(trace)
        .contains("delivered offset 0, below offset 1000 where this lake resumes it")
        .contains("behavior.on.offset.discontinuity=new_generation");
    assertThat(rows(lake, "rt", "incarnation = 2")).as("nothing of the new topic landed").isZero();

    configure("rt-lake", "rt", lake, Map.of("behavior.on.offset.discontinuity", "new_generation"));
    cluster.connect().restartConnectorAndTasks("rt-lake", false, true, false);
    awaitRows(lake, "rt", 5100);
    assertThat(rows(lake, "rt", "incarnation = 1")).isEqualTo(3000);
    try (DuckDbLake read = new DuckDbLake(lake)) {
      String files =
          read.table("rt").replace("union_by_name=true", "union_by_name=true, filename=true");
      assertThat(
              read.count(
                  "select count(distinct p || '/' || seq) from "
                      + files
                      + " where incarnation = 2 and filename like '%+g1+%'"))
          .as("every record of the new topic once, in generation 1")
          .isEqualTo(2100);
    }
    cluster.connect().deleteConnector("rt-lake");
  }

  @Test
  void recordsThatExpiredBeforeTheyLandedFailTheTaskThenLandAsANewGeneration() throws Exception {
    createTopic("ex", 1);
    produce("ex", 1, 100, 1);
    Path lake = lakes.resolve("ex");
    configure("ex-lake", "ex", lake, Map.of());
    awaitRows(lake, "ex", 100);
    cluster.connect().stopConnector("ex-lake");
    awaitState("ex-lake", "STOPPED");

    produce("ex", 1, 100, 2); // offsets 100..199
    deleteRecords("ex", 0, 150); // 100..149 expire before the sink is back
    cluster.connect().resumeConnector("ex-lake");
    assertThat(awaitFailedTask("ex-lake"))
        .contains("resumes ex-0 at offset 100 but the first record Kafka still holds is at 150")
        .contains("100..149 expired");

    configure("ex-lake", "ex", lake, Map.of("behavior.on.offset.discontinuity", "new_generation"));
    cluster.connect().restartConnectorAndTasks("ex-lake", false, true, false);
    awaitRows(lake, "ex", 150);
    assertThat(rows(lake, "ex", "incarnation = 2 and seq >= 50")).isEqualTo(50);
    cluster.connect().deleteConnector("ex-lake");
  }

  @Test
  void aNewLakeOnATopicWhoseFirstRecordsExpiredStartsAtTheFirstRecordKafkaHolds() throws Exception {
    createTopic("ex-new", 1);
    produce("ex-new", 1, 100, 1);
    deleteRecords("ex-new", 0, 40);
    Path lake = lakes.resolve("ex-new");
    configure("ex-new-lake", "ex-new", lake, Map.of());
    awaitRows(lake, "ex-new", 60);
    assertThat(rows(lake, "ex-new", "seq < 40")).isZero();
    cluster.awaitRunning("ex-new-lake", 1, LANDED);
    cluster.connect().deleteConnector("ex-new-lake");
  }

  @Test
  void anOffsetResetThroughTheRestApiIsRefusedThenHonouredAsANewGeneration() throws Exception {
    createTopic("rs", 1);
    produce("rs", 1, 100, 1);
    Path lake = lakes.resolve("rs");
    configure("rs-lake", "rs", lake, Map.of());
    awaitRows(lake, "rs", 100);
    cluster.connect().stopConnector("rs-lake");
    awaitState("rs-lake", "STOPPED");

    TopicPartition rs0 = new TopicPartition("rs", 0);
    assertThatThrownBy(() -> cluster.connect().alterSinkConnectorOffset("rs-lake", rs0, 40L))
        .hasMessageContaining("rs-0 to offset 40")
        .hasMessageContaining("committed offsets up to 99");

    configure("rs-lake", "rs", lake, Map.of("behavior.on.offset.discontinuity", "new_generation"));
    awaitState("rs-lake", "STOPPED");
    cluster.connect().alterSinkConnectorOffset("rs-lake", rs0, 40L);
    cluster.connect().resumeConnector("rs-lake");
    awaitRows(lake, "rs", 160);
    assertThat(rows(lake, "rs", "seq >= 40")).as("40..99 landed again, as asked").isEqualTo(120);

    cluster.connect().stopConnector("rs-lake");
    awaitState("rs-lake", "STOPPED");
    cluster.connect().resetConnectorOffsets("rs-lake");
    cluster.connect().resumeConnector("rs-lake");
    awaitRows(lake, "rs", 260);
    try (DuckDbLake read = new DuckDbLake(lake)) {
      String files =
          read.table("rs").replace("union_by_name=true", "union_by_name=true, filename=true");
      assertThat(read.count("select count(*) from " + files + " where filename like '%+g2+%'"))
          .as("a reset lands the topic from its start as generation 2")
          .isEqualTo(100);
    }
    cluster.connect().deleteConnector("rs-lake");
  }

  private static void configure(
      String name, String topic, Path lake, Map<String, String> overrides) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("topics.dir", lake.toString());
    config.put("rotate.schedule.interval.ms", "1000");
    config.put("flush.size", "100000");
    config.put("state.mirror", "off");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.putAll(overrides);
    cluster.connect().configureConnector(name, config);
  }

  private static void createTopic(String topic, int partitions) {
    cluster.kafka().createTopic(topic, partitions, 1, Map.of("retention.ms", "-1"));
  }

  /** Deletes the topic and creates it again once the broker finished deleting it. */
  private static void recreateTopic(String topic, int partitions) throws Exception {
    admin.deleteTopics(List.of(topic)).all().get();
    Await.until(
        LANDED,
        topic + " to be created again",
        () -> {
          try {
            admin
                .createTopics(
                    List.of(
                        new NewTopic(topic, partitions, (short) 1)
                            .configs(Map.of("retention.ms", "-1"))))
                .all()
                .get();
            return true;
          } catch (Exception e) {
            return false; // still being deleted
          }
        });
  }

  /** Lets the group of a deleted connector go, as a fresh broker would have none. */
  private static void deleteGroupOf(String connector) {
    Await.until(
        LANDED,
        "the consumer group of " + connector + " to be deleted",
        () -> {
          try {
            admin.deleteConsumerGroups(List.of("connect-" + connector)).all().get();
            return true;
          } catch (Exception e) {
            return false; // members are still leaving
          }
        });
  }

  private static void deleteRecords(String topic, int partition, long before) throws Exception {
    admin
        .deleteRecords(
            Map.of(new TopicPartition(topic, partition), RecordsToDelete.beforeOffset(before)))
        .all()
        .get();
  }

  /**
   * Produces {@code perPartition} JSON records to each partition, numbered from 0 per partition.
   */
  private static void produce(String topic, int partitions, int perPartition, int incarnation) {
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (int seq = 0; seq < perPartition; seq++) {
        for (int p = 0; p < partitions; p++) {
          String value =
              "{\"p\":" + p + ",\"seq\":" + seq + ",\"incarnation\":" + incarnation + "}";
          producer.send(
              new ProducerRecord<>(
                  topic,
                  p,
                  ("k" + seq).getBytes(StandardCharsets.UTF_8),
                  value.getBytes(StandardCharsets.UTF_8)));
        }
      }
      producer.flush();
    }
  }

  private static long rows(Path lake, String table, String where) {
    try (DuckDbLake read = new DuckDbLake(lake)) {
      if (!read.hasFiles(table)) {
        return 0;
      }
      return read.count("select count(*) from " + read.table(table) + " where " + where);
    }
  }

  private static void awaitRows(Path lake, String table, long rows) {
    Await.until(
        LANDED,
        () ->
            rows
                + " rows in "
                + lake
                + "/"
                + table
                + "; has "
                + rows(lake, table, "true")
                + "; tasks: "
                + cluster.statusOrError(tableConnector(table)),
        () -> rows(lake, table, "true") == rows);
  }

  private static String tableConnector(String table) {
    return table + "-lake";
  }

  private static void awaitState(String connector, String state) {
    Await.until(
        LANDED,
        () -> connector + " " + state + "; is " + cluster.statusOrError(connector),
        () -> state.equals(cluster.connect().connectorStatus(connector).connector().state()));
  }

  /** Waits until the connector's task failed and returns its trace. */
  private static String awaitFailedTask(String connector) {
    String[] trace = new String[1];
    Await.until(
        LANDED,
        () -> connector + " task to fail; is " + cluster.statusOrError(connector),
        () -> {
          ConnectorStateInfo status = cluster.connect().connectorStatus(connector);
          for (ConnectorStateInfo.TaskState task : status.tasks()) {
            if ("FAILED".equals(task.state())) {
              trace[0] = task.trace();
              return true;
            }
          }
          return false;
        });
    return trace[0];
  }

  /** The mirrored progress row of a TP, read straight from the DynamoDB-compatible server. */
  private static JsonNode progressRow(DynaliteServer dynalite, String pipeline, String tp)
      throws Exception {
    try (DynamoDbClient client =
        DynamoDbClient.builder()
            .endpointOverride(dynalite.endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .build()) {
      Map<String, AttributeValue> item =
          client
              .getItem(
                  b ->
                      b.tableName("skippr-state")
                          .key(
                              Map.of(
                                  "scope",
                                  AttributeValue.fromS("default#default#" + pipeline),
                                  "key",
                                  AttributeValue.fromS("progress#" + tp))))
              .item();
      assertThat(item).as("progress row of %s", tp).isNotEmpty();
      return JSON.readTree(valueOf(item));
    }
  }

  private static byte[] valueOf(Map<String, AttributeValue> item) {
    AttributeValue value = item.get("value");
    assertThat(value).as("value attribute of %s", item.keySet()).isNotNull();
    return value.b() != null ? value.b().asByteArray() : value.s().getBytes(StandardCharsets.UTF_8);
  }
}
