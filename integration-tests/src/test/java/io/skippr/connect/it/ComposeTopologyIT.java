package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.DynaliteServer;
import io.skippr.connect.testkit.FreePorts;
import io.skippr.connect.testkit.S3MockServer;
import io.skippr.connect.testkit.Unprivileged;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The docker-compose stack ({@code docker/}) as the images run it, without a Docker engine: the
 * {@code connect} service's command, environment and volumes are read from {@code
 * docker-compose.yml} itself, and the worker runs as the image does, as an unprivileged user
 * ({@code nobody} through {@code setpriv} when the tests run as root) whose working directory is
 * {@code /}, which it cannot write. Its plugin comes from the built archive, its named volumes are
 * folders that user owns (as a new volume takes the image's ownership), the JMX exporter agent of
 * {@code KAFKA_OPTS} runs with the stack's rules. A KRaft broker stands in for {@code kafka},
 * S3Mock for {@code s3}, dynalite for {@code dynamodb}. {@code docker/register.sh} itself registers
 * {@code config/docker/*.json}, with only addresses and ports changed, with the {@code register}
 * service's environment.
 *
 * <p>No schema registry runs here: the Avro pipeline's connectors are registered and must run (so
 * the converter loads from the plugin path and their configs are valid), but no row goes through
 * it. Nor are the images themselves pulled or run.
 */
class ComposeTopologyIT {
  private static final Duration READY = Duration.ofMinutes(2);
  private static final Duration LANDED = Duration.ofMinutes(2);
  private static final String IMAGE_USER = "nobody";
  private static final String INITIAL_BUCKETS = "COM_ADOBE_TESTING_S3MOCK_STORE_INITIAL_BUCKETS";
  private static final Path CONNECT_PLUGINS = Path.of("target/connect-plugins").toAbsolutePath();
  private static final Path AGENTS = Path.of("target/agents").toAbsolutePath();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final List<String> PLUGIN_CLASSES =
      List.of(
          "io.skippr.connect.sink.LakeSinkConnector",
          "io.skippr.connect.source.http.HttpIngestSourceConnector",
          "io.apicurio.registry.utils.converter.AvroConverter");

  private static final List<CliProcess> processes = new ArrayList<>();
  private static Path dir;
  private static S3MockServer s3;
  private static DynaliteServer dynamo;
  private static ConnectWorkerProcess worker;
  private static ComposeFiles compose;
  private static String bootstrap;
  private static URI metrics;
  private static Map<String, Map<String, String>> connectors;

  @BeforeAll
  static void startStack() throws Exception {
    // Not a @TempDir: that one is private to root, and the worker's user must reach its folders.
    dir = Files.createTempDirectory("skippr-compose");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    CompletableFuture<S3MockServer> s3Start = CompletableFuture.supplyAsync(S3MockServer::start);
    int[] ports = FreePorts.take(4);
    try {
      dynamo = DynaliteServer.start(dir.resolve("dynalite"));
      bootstrap = "127.0.0.1:" + ports[0];
      processes.add(CliProcess.startBroker(dir, ports[0], ports[1], READY));
    } finally {
      s3 = s3Start.join();
    }
    compose = ComposeFiles.read();
    compose
        .address("kafka:29092", bootstrap)
        .address("0.0.0.0:8083", "127.0.0.1:" + ports[2])
        .address("connect:8083", "127.0.0.1:" + ports[2])
        .address("dynamodb:8000", dynamo.endpoint().getAuthority())
        .address("s3:9090", s3.endpoint().getAuthority())
        .mountsOf(
            "connect",
            Map.of(
                "../distribution/target/plugin",
                unpackPluginArchive(),
                "connect-plugins",
                CONNECT_PLUGINS,
                "jmx-exporter",
                AGENTS,
                "connect-data",
                volumeOwnedByImageUser("connect-data")))
        .mountsOf("register", Map.of("../config", dir.resolve("config")));
    // The s3 service creates these at start (S3Mock's initial buckets).
    for (String bucket : compose.environment("s3").get(INITIAL_BUCKETS).split(",")) {
      s3.createBucket(bucket.strip());
    }
    assertThat(CONNECT_PLUGINS.resolve("apicurio-avro-converter"))
        .as("the converter fetched by docker/connect-plugins/pom.xml (integration-tests build)")
        .isDirectory();
    worker = startConnectService(ports[3]);
    worker.awaitReady(READY, PLUGIN_CLASSES);
    connectors = registerWithRegisterSh();
  }

  /**
   * The connect service: {@code connect-distributed.sh WORKER_PROPERTIES} (ConnectDistributed with
   * Kafka's jars), its environment with KAFKA_OPTS as JVM options, as the image's user in {@code
   * /}.
   */
  private static ConnectWorkerProcess startConnectService(int metricsPort) throws IOException {
    List<String> command = compose.command("connect");
    assertThat(command).hasSize(2);
    assertThat(command.get(0)).endsWith("/bin/connect-distributed.sh");
    Properties workerProps = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(compose.localize(command.get(1))))) {
      workerProps.load(in);
    }
    Map<String, String> env = new LinkedHashMap<>();
    compose.environment("connect").forEach((k, v) -> env.put(k, compose.localize(v)));
    List<String> jvmOptions = new ArrayList<>();
    for (String option : env.remove("KAFKA_OPTS").split("\\s+")) {
      // The agent's port on the host: a free one on loopback.
      jvmOptions.add(
          option.replaceFirst(
              "(jmx_prometheus_javaagent\\.jar=)\\d+:", "$1127.0.0.1:" + metricsPort + ":"));
    }
    assertThat(jvmOptions).anyMatch(o -> o.startsWith("-javaagent:" + AGENTS));
    metrics = URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
    List<String> runAs = Unprivileged.isRoot() ? Unprivileged.setpriv(IMAGE_USER) : List.of();
    assertCannotWrite(runAs, Path.of("/"));
    Path workerDir = Files.createDirectories(dir.resolve("worker"));
    return ConnectWorkerProcess.start(
        new ConnectWorkerProcess.Launch(
            workerDir, compose.localize(workerProps), env, jvmOptions, runAs, Path.of("/")));
  }

  /**
   * Registers config/docker/*.json by running docker/register.sh with the register service's
   * environment, on copies with only addresses and the ingest ports changed.
   *
   * @return the registered configs by connector name
   */
  private static Map<String, Map<String, String>> registerWithRegisterSh() throws Exception {
    Map<String, Map<String, String>> files = ComposeFiles.connectors();
    assertThat(files)
        .containsOnlyKeys(
            "http-ingest", "http-ingest-avro", "lake-sink", "lake-sink-avro", "lake-sink-events");
    Map<String, Map<String, String>> registered = new LinkedHashMap<>();
    Map<String, String> env = new LinkedHashMap<>();
    compose.environment("register").forEach((k, v) -> env.put(k, compose.localize(v)));
    Path configDir = Files.createDirectories(Path.of(env.get("CONFIG_DIR")));
    for (Map.Entry<String, Map<String, String>> file : files.entrySet()) {
      Map<String, String> config = compose.localize(file.getValue());
      if (config.containsKey("server.port")) {
        config.put("server.port", Integer.toString(FreePorts.one()));
      }
      assertThat(compose.composeAddressesIn(config.values()))
          .as(file.getKey() + ": compose addresses left (only the registry has no stand-in)")
          .allMatch(address -> address.startsWith("schema-registry:"));
      JSON.writeValue(configDir.resolve(file.getKey() + ".json").toFile(), config);
      registered.put(file.getKey(), config);
    }
    RegisterRun run = RegisterRun.of(env);
    assertThat(run.exitCode()).as("register.sh:\n" + run.output() + worker.tail()).isZero();
    for (String name : registered.keySet()) {
      assertThat(run.output()).contains(name + ": created").contains(name + ": RUNNING");
    }
    assertThat(run.output()).contains("register: 5 connector(s) running");
    return registered;
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
    if (dir != null) {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void rowsPushedThroughTheStackLandInS3ExactlyOnce() throws Exception {
    String token = compose.environment("connect").get("SKIPPR_INGEST_TOKEN");
    StackLoad load = new StackLoad(bootstrap, ingestUrl(connectors.get("http-ingest")), token);
    long pushed = System.nanoTime();
    load.pushAll();

    Map<String, String> sink = connectors.get("lake-sink");
    URI lake = URI.create(sink.get("topics.dir"));
    String prefix = lake.getPath().replaceFirst("^/", "") + "/";
    Path local = dir.resolve("lake");
    Await.until(
        LANDED,
        () -> "every row in s3://" + lake.getHost() + "/" + prefix + "; log:\n" + worker.tail(),
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
    assertMetricsScraped();
  }

  /**
   * The ingest token is read through the env config provider: the REST API shows the placeholder
   * only, and a write without the token is refused.
   */
  @Test
  void theIngestTokenStaysOutOfTheRestApi() throws Exception {
    String placeholder = ComposeFiles.connectors().get("http-ingest").get("auth.token");
    assertThat(placeholder).isEqualTo("${env:SKIPPR_INGEST_TOKEN}");
    String token = compose.environment("connect").get("SKIPPR_INGEST_TOKEN");
    for (String name : List.of("http-ingest", "http-ingest-avro")) {
      JsonNode config = worker.get("/connectors/" + name + "/config");
      assertThat(config.path("auth.token").asText()).as(name).isEqualTo(placeholder);
      assertThat(config.toString()).as(name).doesNotContain(token);
    }
    HttpResponse<String> anonymous =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(ingestUrl(connectors.get("http-ingest")) + "/write?db=x"))
                .POST(HttpRequest.BodyPublishers.ofString("cpu usage=1"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);
  }

  /** register.sh reports every connector and exits 1 when one of them cannot be registered. */
  @Test
  void registerShReportsEachConnectorAndFailsOnABadOne() throws Exception {
    Path configs = Files.createDirectories(dir.resolve("register-bad"));
    Files.writeString(
        configs.resolve("a-broken.json"), "{\"connector.class\": \"io.skippr.NoSuchConnector\"}");
    JSON.writeValue(
        configs.resolve("lake-sink-events.json").toFile(), connectors.get("lake-sink-events"));
    Map<String, String> env = new LinkedHashMap<>();
    compose.environment("register").forEach((k, v) -> env.put(k, compose.localize(v)));
    env.put("CONFIG_DIR", configs.toString());
    RegisterRun run = RegisterRun.of(env);
    assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
    assertThat(run.output())
        .contains("a-broken: NOT REGISTERED (HTTP 400")
        .contains("lake-sink-events: updated")
        .contains("lake-sink-events: RUNNING")
        .contains("register: 1 problem(s) with 2 connector(s)");
  }

  @Test
  void everyConnectorKeepsItsStateInDynamoDbAndEverySinkReadsCommitted() throws Exception {
    Map<String, Map<String, String>> all = ComposeFiles.connectors();
    all.forEach(
        (name, config) ->
            assertThat(config)
                .as(name)
                .containsEntry("store.type", "dynamodb")
                .containsEntry("store.dynamodb.endpoint", "http://dynamodb:8000"));
    all.forEach(
        (name, config) -> {
          if (config.get("connector.class").endsWith("LakeSinkConnector")) {
            assertThat(config)
                .as(name)
                .containsEntry("consumer.override.isolation.level", "read_committed")
                .containsEntry("errors.tolerance", "all")
                .containsKey("errors.deadletterqueue.topic.name")
                .containsEntry("s3.endpoint", "http://s3:9090");
            assertThat(config.get("topics.dir")).as(name).startsWith("s3://lake/");
          }
        });
    Properties props = ComposeFiles.workerProperties();
    assertThat(props.getProperty("connector.client.config.override.policy")).isEqualTo("All");
    assertThat(props.getProperty("consumer.isolation.level")).isEqualTo("read_committed");
    assertThat(props.getProperty("exactly.once.source.support")).isEqualTo("enabled");
    assertThat(compose.environment("kafka"))
        .as("the broker's log dir is the kafka-data volume")
        .containsEntry("KAFKA_LOG_DIRS", "/var/lib/kafka/data");
  }

  /**
   * The agent of KAFKA_OPTS with the stack's rules exposes the ingest, sink and Connect metrics and
   * the sink consumers' lag, with plausible values once every row landed.
   */
  private static void assertMetricsScraped() throws Exception {
    PrometheusScrape scrape = PrometheusScrape.of(metrics);
    scrape.assertExposes(ExposedMetrics.HTTP_INGEST, "http-ingest");
    scrape.assertExposes(ExposedMetrics.LAKE_SINK, "lake-sink");
    scrape.assertExposes(ExposedMetrics.LAKE_SINK_PER_TP, "lake-sink");
    scrape.assertExposes(ExposedMetrics.CONNECT_SINK_TASK, "lake-sink");
    scrape.assertExposes(ExposedMetrics.CONNECT_SOURCE_TASK, "http-ingest");
    scrape.assertExposes(ExposedMetrics.CONNECT_WORKER, "http-ingest");
    assertThat(scrape.sum("skippr_rows_accepted_total", Map.of("connector", "http-ingest")))
        .isEqualTo(StackLoad.rowsPushed());
    assertThat(scrape.sum("skippr_rows_committed_total", Map.of("connector", "lake-sink")))
        .isGreaterThanOrEqualTo(StackLoad.pointsPushed());
    for (int p = 0; p < 3; p++) {
      assertThat(
              scrape.samples(
                  "skippr_committed_offset",
                  Map.of("topic", StackLoad.CPU, "partition", Integer.toString(p))))
          .as("committed offset of %s-%d", StackLoad.CPU, p)
          .singleElement()
          .satisfies(s -> assertThat(s.value()).isPositive());
    }
    Map<String, String> sink = Map.of("connector", "lake-sink");
    for (String counter :
        List.of(
            "skippr_units_committed_total",
            "skippr_files_committed_total",
            "skippr_bytes_committed_total")) {
      assertThat(scrape.sum(counter, sink)).as(counter + " of lake-sink").isPositive();
    }
    assertThat(scrape.samples("skippr_commit_latency_max", sink))
        .as("skippr_commit_latency_max of lake-sink (ms, a window that holds the last commits)")
        .extracting(PrometheusScrape.Sample::value)
        .anySatisfy(ms -> assertThat(ms).isPositive());
    for (int p = 0; p < 3; p++) {
      assertThat(sinkConsumerLag(scrape, p))
          .as("kafka_consumer_records_lag of the lake-sink consumers, %s-%d", StackLoad.CPU, p)
          .isNotEmpty()
          .allSatisfy(
              s ->
                  assertThat(s.labels())
                      .containsKeys(
                          ExposedMetrics.CONSUMER_LAG
                              .get("kafka_consumer_records_lag")
                              .toArray(String[]::new)));
    }
    // Every row landed: nothing is delivered and not committed, nothing left to consume. The
    // gauges follow the task's next commit and the consumer's next fetch, so this waits for them.
    String[] last = {""};
    Await.until(
        LANDED,
        () -> "no lag of lake-sink on " + StackLoad.CPU + "; last scrape: " + last[0],
        new Throttled(
            Duration.ofSeconds(1),
            () -> {
              try {
                PrometheusScrape now = PrometheusScrape.of(metrics);
                List<PrometheusScrape.Sample> lag = new ArrayList<>();
                for (int p = 0; p < 3; p++) {
                  lag.addAll(
                      now.samples(
                          "skippr_lag_records",
                          Map.of(
                              "connector",
                              "lake-sink",
                              "topic",
                              StackLoad.CPU,
                              "partition",
                              Integer.toString(p))));
                  lag.addAll(sinkConsumerLag(now, p));
                }
                last[0] = lag.toString();
                return lag.size() >= 6 && lag.stream().allMatch(s -> s.value() == 0);
              } catch (IOException e) {
                last[0] = e.toString();
                return false;
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
              }
            }));
  }

  /**
   * {@code kafka_consumer_records_lag} of partition {@code p} of {@link StackLoad#CPU} as the
   * lake-sink tasks' consumers ({@code connector-consumer-lake-sink-N}) report it.
   */
  private static List<PrometheusScrape.Sample> sinkConsumerLag(PrometheusScrape scrape, int p) {
    return scrape
        .samples(
            "kafka_consumer_records_lag",
            Map.of("topic", StackLoad.CPU, "partition", Integer.toString(p)))
        .stream()
        .filter(
            s ->
                s.labels()
                    .getOrDefault("client_id", "")
                    .matches("connector-consumer-lake-sink-\\d+"))
        .toList();
  }

  /** A run of docker/register.sh: its exit code and output. */
  private record RegisterRun(int exitCode, String output) {
    static RegisterRun of(Map<String, String> env) throws IOException, InterruptedException {
      Path log = Files.createTempFile(dir, "register", ".log");
      ProcessBuilder builder =
          new ProcessBuilder("sh", ComposeFiles.DOCKER.resolve("register.sh").toString())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().putAll(env);
      Process process = builder.start();
      assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("register.sh finished").isTrue();
      return new RegisterRun(process.exitValue(), Files.readString(log));
    }
  }

  /**
   * The plugin archive of distribution/target, unpacked as a user would: the one of this build's
   * version ({@code skippr.version}, which the POM passes), else the newest.
   */
  private static Path unpackPluginArchive() throws IOException {
    Path built = ComposeFiles.ROOT.resolve("distribution/target");
    String version = System.getProperty("skippr.version", "");
    Path archive;
    if (!version.isBlank()) {
      archive = built.resolve("skippr-connect-" + version + ".zip");
      assertThat(archive)
          .as("the plugin archive of this build: build distribution")
          .isRegularFile();
    } else {
      try (Stream<Path> files = Files.list(built)) {
        archive =
            files
                .filter(f -> f.getFileName().toString().matches("skippr-connect-.*\\.zip"))
                .max(Comparator.comparing(ComposeTopologyIT::modified))
                .orElseThrow(() -> new AssertionError("no plugin archive: build distribution"));
      }
    }
    Path target = Files.createDirectories(dir.resolve("plugin"));
    try (InputStream in = Files.newInputStream(archive);
        ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        Path out = target.resolve(entry.getName()).normalize();
        assertThat(out).startsWithRaw(target); // raw: the entry does not exist yet
        if (entry.isDirectory()) {
          Files.createDirectories(out);
        } else {
          Files.createDirectories(out.getParent());
          Files.copy(zip, out);
        }
      }
    }
    return target;
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A named volume: a new one takes the ownership of the image's folder, the image's user. */
  private static Path volumeOwnedByImageUser(String name) throws IOException {
    Path volume = Files.createDirectories(dir.resolve("volumes").resolve(name));
    if (Unprivileged.isRoot()) {
      Unprivileged.chown(volume, IMAGE_USER);
    }
    return volume;
  }

  /** The premise: the worker's user cannot write {@code path}. */
  private static void assertCannotWrite(List<String> runAs, Path path) throws IOException {
    List<String> command = new ArrayList<>(runAs);
    command.addAll(List.of("sh", "-c", "test -w " + path));
    try {
      Process test = new ProcessBuilder(command).start();
      assertThat(test.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(test.exitValue()).as(path + " not writable by the worker's user").isEqualTo(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
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
