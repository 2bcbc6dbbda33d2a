package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.DynaliteServer;
import io.skippr.connect.testkit.FreePorts;
import io.skippr.connect.testkit.S3MockServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docker-compose stack ({@code docker/}) as local processes: a KRaft broker, a stock Connect
 * worker started from {@code docker/worker.properties} with the compose service's environment,
 * S3Mock for the {@code s3} service and dynalite for {@code dynamodb}, the plugin path holding the
 * Skippr plugin and the Apicurio converter fetched by {@code docker/connect-plugins/pom.xml}. Every
 * connector of {@code config/docker} is registered as the stack's register service does, with only
 * addresses changed; rows pushed to the HTTP ingest source are read back from S3 with DuckDB.
 *
 * <p>No schema registry runs here: the Avro pipeline's connectors are registered and must run (so
 * the converter loads from the plugin path and their configs are valid), but no row goes through
 * it.
 */
class ComposeTopologyIT {
  private static final Duration READY = Duration.ofMinutes(2);
  private static final Duration LANDED = Duration.ofMinutes(2);
  private static final String INITIAL_BUCKETS = "COM_ADOBE_TESTING_S3MOCK_STORE_INITIAL_BUCKETS";
  private static final Path CONNECT_PLUGINS = Path.of("target/connect-plugins").toAbsolutePath();
  private static final List<String> PLUGIN_CLASSES =
      List.of(
          "io.skippr.connect.sink.LakeSinkConnector",
          "io.skippr.connect.source.http.HttpIngestSourceConnector",
          "io.apicurio.registry.utils.converter.AvroConverter");

  @TempDir static Path dir;
  private static final List<CliProcess> processes = new ArrayList<>();
  private static S3MockServer s3;
  private static DynaliteServer dynamo;
  private static ConnectWorkerProcess worker;
  private static ComposeFiles compose;
  private static String bootstrap;

  @BeforeAll
  static void startStack() throws Exception {
    CompletableFuture<S3MockServer> s3Start = CompletableFuture.supplyAsync(S3MockServer::start);
    try {
      dynamo = DynaliteServer.start(dir.resolve("dynalite"));
      int[] ports = FreePorts.take(3);
      bootstrap = "127.0.0.1:" + ports[0];
      CliProcess broker =
          CliProcess.startLocal(
              "broker",
              dir.resolve("logs"),
              List.of(
                  "--no-worker",
                  "--data-dir=" + dir.resolve("broker"),
                  "--kafka-port=" + ports[0],
                  "--controller-port=" + ports[1]));
      processes.add(broker);
      broker.awaitReady(READY);
      compose = ComposeFiles.read();
      compose
          .address("kafka:29092", bootstrap)
          .address("0.0.0.0:8083", "127.0.0.1:" + ports[2])
          .address("dynamodb:8000", dynamo.endpoint().getAuthority())
          .mountsOf("connect", Map.of("connect-plugins", CONNECT_PLUGINS));
    } finally {
      s3 = s3Start.join();
    }
    compose.address("s3:9090", s3.endpoint().getAuthority());
    // The s3 service creates these at start (S3Mock's initial buckets).
    for (String bucket : compose.environment("s3").get(INITIAL_BUCKETS).split(",")) {
      s3.createBucket(bucket.strip());
    }
    assertThat(CONNECT_PLUGINS.resolve("apicurio-avro-converter"))
        .as("the converter fetched by docker/connect-plugins/pom.xml (integration-tests build)")
        .isDirectory();
    Properties workerProps = compose.localize(ComposeFiles.workerProperties());
    Path workerDir = Files.createDirectories(dir.resolve("worker"));
    worker = ConnectWorkerProcess.start(workerDir, workerProps, compose.environment("connect"));
    worker.awaitReady(READY, PLUGIN_CLASSES);
  }

  @AfterAll
  static void stopStack() throws Exception {
    if (worker != null) {
      worker.close();
    }
    CliProcess.stopAll(processes);
    if (dynamo != null) {
      dynamo.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void rowsPushedThroughTheStackLandInS3ExactlyOnce() throws Exception {
    Map<String, Map<String, String>> connectors = registerEveryConnector();
    StackLoad load = new StackLoad(bootstrap, ingestUrl(connectors.get("http-ingest")));
    long pushed = System.nanoTime();
    load.pushAll();

    Map<String, String> sink = connectors.get("lake-sink");
    URI lake = URI.create(sink.get("topics.dir"));
    String prefix = lake.getPath().replaceFirst("^/", "") + "/";
    Path local = dir.resolve("lake");
    Await.until(
        LANDED,
        () ->
            "every row in s3://"
                + lake.getHost()
                + "/"
                + prefix
                + "; worker log:\n"
                + worker.tail(),
        new Throttled(
            Duration.ofSeconds(1),
            () -> {
              s3.download(lake.getHost(), prefix, local);
              return load.landed(local);
            }));

    System.out.printf(
        "compose topology: %d connectors running, every row in S3 %.1f s after the first push%n",
        connectors.size(), (System.nanoTime() - pushed) / 1e9);
    try (DuckDbLake duck = new DuckDbLake(local)) {
      load.assertLake(duck, local);
    }
    load.assertDeadLetterQueue(sink.get("errors.deadletterqueue.topic.name"));
    assertProgressMirroredToDynamoDb(sink.get("store.name"));
  }

  /**
   * Registers config/docker/*.json as register.sh does, with only addresses localized, and waits
   * until each connector and its tasks run.
   *
   * @return the registered configs by connector name
   */
  private static Map<String, Map<String, String>> registerEveryConnector() throws Exception {
    Map<String, Map<String, String>> registered = new LinkedHashMap<>();
    Map<String, Map<String, String>> files = ComposeFiles.connectors();
    assertThat(files)
        .containsOnlyKeys(
            "http-ingest", "http-ingest-avro", "lake-sink", "lake-sink-avro", "lake-sink-events");
    for (Map.Entry<String, Map<String, String>> file : files.entrySet()) {
      Map<String, String> config = compose.localize(file.getValue());
      if (config.containsKey("server.port")) {
        config.put("server.port", Integer.toString(FreePorts.one()));
      }
      assertThat(compose.composeAddressesIn(config.values()))
          .as(file.getKey() + ": compose addresses left (only the registry has no stand-in)")
          .allMatch(address -> address.startsWith("schema-registry:"));
      worker.putConnector(file.getKey(), config);
      registered.put(file.getKey(), config);
    }
    for (Map.Entry<String, Map<String, String>> c : registered.entrySet()) {
      int tasks = Integer.parseInt(c.getValue().get("tasks.max"));
      Await.until(
          READY,
          () -> c.getKey() + " running; log:\n" + worker.tail(),
          () -> worker.running(c.getKey(), tasks));
    }
    return registered;
  }

  @Test
  void everySinkReadsCommittedAndHasADeadLetterQueue() throws Exception {
    Map<String, Map<String, String>> sinks = new HashMap<>();
    ComposeFiles.connectors()
        .forEach(
            (name, config) -> {
              if (config.get("connector.class").endsWith("LakeSinkConnector")) {
                sinks.put(name, config);
              }
            });
    assertThat(sinks).containsOnlyKeys("lake-sink", "lake-sink-avro", "lake-sink-events");
    sinks.forEach(
        (name, config) -> {
          assertThat(config)
              .as(name)
              .containsEntry("consumer.override.isolation.level", "read_committed")
              .containsEntry("errors.tolerance", "all")
              .containsKey("errors.deadletterqueue.topic.name")
              .containsEntry("store.type", "dynamodb")
              .containsEntry("store.dynamodb.endpoint", "http://dynamodb:8000")
              .containsEntry("s3.endpoint", "http://s3:9090");
          assertThat(config.get("topics.dir")).as(name).startsWith("s3://lake/");
        });
    assertThat(
            ComposeFiles.workerProperties().getProperty("connector.client.config.override.policy"))
        .as("the override policy lets sinks set their consumers' isolation level")
        .isEqualTo("All");
    assertThat(ComposeFiles.workerProperties().getProperty("consumer.isolation.level"))
        .as("sinks registered by hand read committed records too")
        .isEqualTo("read_committed");
  }

  private static String ingestUrl(Map<String, String> ingest) {
    return "http://127.0.0.1:" + ingest.get("server.port");
  }

  private static void assertProgressMirroredToDynamoDb(String table) {
    List<String> progress = DynamoDbRows.keys(dynamo.endpoint(), table, "progress#metrics.cpu/");
    assertThat(progress)
        .as("the lake sink's progress rows in the DynamoDB-compatible store")
        .containsExactlyInAnyOrder(
            "progress#metrics.cpu/0", "progress#metrics.cpu/1", "progress#metrics.cpu/2");
  }
}
