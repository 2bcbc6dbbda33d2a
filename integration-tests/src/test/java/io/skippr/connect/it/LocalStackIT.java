package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.FreePorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code skippr local} as a user runs it: a separate process, stopped with SIGTERM. */
class LocalStackIT {
  private static final Duration READY = Duration.ofMinutes(2);

  @TempDir Path dataDir;
  @TempDir Path logs;

  @Test
  void startsStopsCleanlyAndResumesTheSameCluster() throws Exception {
    int[] ports = FreePorts.take(3);
    String clusterId;
    CliProcess first = start("first", dataDir, ports);
    try {
      first.awaitReady(READY);
      assertThat(get("http://127.0.0.1:" + ports[2] + "/connector-plugins?connectorsOnly=false"))
          .contains("io.skippr.connect.sink.LakeSinkConnector");
      try (Admin admin = admin(ports[0])) {
        admin.createTopics(List.of(new NewTopic("kept-across-restarts", 2, (short) 1))).all().get();
        clusterId = admin.describeCluster().clusterId().get();
      }
    } finally {
      first.stop();
    }
    assertThat(first.exitCode()).as(first.output()).isZero();

    CliProcess second = start("second", dataDir, ports);
    try {
      second.awaitReady(READY);
      try (Admin admin = admin(ports[0])) {
        assertThat(admin.describeCluster().clusterId().get()).isEqualTo(clusterId);
        Set<String> topics = admin.listTopics().names().get();
        assertThat(topics).contains("kept-across-restarts", "skippr-local-configs");
      }
    } finally {
      second.stop();
    }
    assertThat(second.exitCode()).as(second.output()).isZero();
  }

  @Test
  void portInUseIsAOneLineError() throws Exception {
    int[] ports = FreePorts.take(3);
    try (ServerSocket taken = new ServerSocket(ports[2], 1, InetAddress.getLoopbackAddress())) {
      CliProcess process = start("port-in-use", dataDir, ports);
      assertThat(process.awaitExit(Duration.ofSeconds(60))).isNotZero();
      assertThat(process.errorLines())
          .containsExactly(
              "skippr local: port "
                  + ports[2]
                  + " on 127.0.0.1 is already in use (choose another"
                  + " with --rest-port)");
    }
  }

  @Test
  void unwritableDataDirIsAOneLineError() throws Exception {
    Path file = Files.writeString(dataDir.resolve("not-a-dir"), "x");
    CliProcess process = start("unwritable", file.resolve("data"), FreePorts.take(3));
    assertThat(process.awaitExit(Duration.ofSeconds(60))).isNotZero();
    assertThat(process.errorLines()).hasSize(1);
    assertThat(process.errorLines().get(0)).contains("is not writable");
  }

  @Test
  void theDataDirectoryHoldsTheStateStoreAndContractsAndServesOneStack(@TempDir Path workingDir)
      throws Exception {
    Path data = dataDir.resolve("data");
    Schema event =
        SchemaBuilder.struct()
            .field("id", Schema.OPTIONAL_INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .optional()
            .build();
    new ContractStore(data).save(PipelineId.of("events"), List.of(new Contract("events", event)));
    int[] ports = FreePorts.take(3);
    CliProcess stack = start("holder", data, ports, workingDir);
    try {
      stack.awaitReady(READY);
      CliProcess second = start("second-on-same-dir", data, FreePorts.take(3), workingDir);
      assertThat(second.awaitExit(Duration.ofSeconds(60))).isNotZero();
      assertThat(second.errorLines())
          .singleElement()
          .asString()
          .startsWith(
              "skippr local: data directory "
                  + data
                  + " is in use by skippr local (pid "
                  + stack.pid()
                  + " ")
          .endsWith("stop it first or choose another --data-dir");

      try (Admin admin = admin(ports[0])) {
        admin.createTopics(List.of(new NewTopic("events", 1, (short) 1))).all().get();
      }
      try (KafkaProducer<String, String> producer = producer(ports[0])) {
        for (int i = 0; i < 20; i++) {
          producer.send(
              new ProducerRecord<>("events", "k" + i, "{\"id\":" + i + ",\"name\":\"n\"}"));
        }
      }
      put(
          "http://127.0.0.1:" + ports[2] + "/connectors/events-lake/config",
          "{\"connector.class\":\"io.skippr.connect.sink.LakeSinkConnector\",\"topics\":\"events\","
              + "\"topics.dir\":\""
              + data.resolve("lake")
              + "\",\"flush.size\":\"10\",\"state.mirror\":\"on\","
              + "\"key.converter\":\"org.apache.kafka.connect.storage.StringConverter\","
              + "\"value.converter\":\"org.apache.kafka.connect.json.JsonConverter\","
              + "\"value.converter.schemas.enable\":\"false\","
              + "\"transforms\":\"validate\","
              + "\"transforms.validate.type\":\"io.skippr.connect.transforms.ValidateContract\","
              + "\"transforms.validate.contract.pipeline\":\"events\"}");
      try (DuckDbLake lake = new DuckDbLake(data.resolve("lake"))) {
        Await.until(
            READY,
            () -> "20 events in the lake; stack output:\n" + stack.output(),
            () ->
                lake.hasFiles("events")
                    && lake.count("select count(*) from " + lake.table("events")) == 20);
      }
      assertThat(data.resolve("state").resolve("CURRENT"))
          .as("the state store is under --data-dir")
          .isRegularFile();
      assertThat(workingDir.resolve("data"))
          .as("nothing under the working directory")
          .doesNotExist();
    } finally {
      stack.stop();
    }
    assertThat(stack.exitCode()).as(stack.output()).isZero();
  }

  private static KafkaProducer<String, String> producer(int kafkaPort) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
  }

  private static void put(String url, String json) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(json))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
  }

  private static Admin admin(int kafkaPort) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort));
  }

  private static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private CliProcess start(String name, Path data, int[] ports) throws IOException {
    return start(name, data, ports, Path.of("").toAbsolutePath());
  }

  private CliProcess start(String name, Path data, int[] ports, Path workingDir)
      throws IOException {
    return CliProcess.startLocal(
        name,
        logs,
        List.of(
            "--data-dir=" + data,
            "--kafka-port=" + ports[0],
            "--controller-port=" + ports[1],
            "--rest-port=" + ports[2]),
        workingDir);
  }
}
