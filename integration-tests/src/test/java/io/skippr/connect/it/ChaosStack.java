package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * A broker process ({@code skippr local --no-worker}) and Connect worker processes ({@code skippr
 * local --bootstrap-servers}) in one Connect group, with the REST calls the chaos tests need.
 */
final class ChaosStack {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration READY = Duration.ofMinutes(2);
  private static final int WORKER_PORTS = 2;
  private static final String PORT_TAKEN = "already in use";

  private final Path root;
  private final List<CliProcess> processes;
  private final int kafkaPort;
  private final int controllerPort;
  private final int[] restPorts;
  private final HttpClient http = HttpClient.newHttpClient();

  /** The worker properties and environment each worker was last started with. */
  private final Map<Integer, List<String>> lastProperties = new HashMap<>();

  private final Map<Integer, Map<String, String>> lastEnv = new HashMap<>();

  private ChaosStack(Path root, List<CliProcess> processes, int[] ports) {
    this.root = root;
    this.processes = processes;
    this.kafkaPort = ports[0];
    this.controllerPort = ports[1];
    this.restPorts = new int[] {ports[2], ports[3]};
  }

  private Path pluginDir =
      Path.of("..").toAbsolutePath().normalize().resolve("distribution/target/plugin");
  private List<Path> extraClasspath = List.of();

  /** Workers started from now on load {@code dir}'s plugins and have {@code jars} on their path. */
  ChaosStack withPlugins(Path dir, List<Path> jars) {
    this.pluginDir = dir;
    this.extraClasspath = List.copyOf(jars);
    return this;
  }

  /** Starts the broker; every process started is added to {@code processes} for cleanup. */
  static ChaosStack start(Path root, List<CliProcess> processes) throws IOException {
    ChaosStack stack = new ChaosStack(root, processes, FreePorts.take(2 + WORKER_PORTS));
    CliProcess broker =
        CliProcess.startLocal(
            "broker",
            root.resolve("logs"),
            List.of(
                "--no-worker",
                "--data-dir=" + root.resolve("broker"),
                "--kafka-port=" + stack.kafkaPort,
                "--controller-port=" + stack.controllerPort));
    processes.add(broker);
    broker.awaitReady(READY);
    return stack;
  }

  int restPort(int worker) {
    return restPorts[worker];
  }

  /** The REST API of worker number {@code worker}. */
  String restUrl(int worker) {
    return rest(worker);
  }

  String bootstrapServers() {
    return "127.0.0.1:" + kafkaPort;
  }

  /** Short session timeouts and no scheduled-rebalance delay: tasks move on within seconds. */
  static final List<String> MOVE_AT_ONCE =
      List.of(
          "session.timeout.ms=6000",
          "heartbeat.interval.ms=1000",
          "scheduled.rebalance.max.delay.ms=0",
          // The sink tasks' consumers: a killed task's partitions move on within seconds.
          "consumer.session.timeout.ms=6000",
          "consumer.heartbeat.interval.ms=1000");

  /**
   * Like {@link #startWorker(String, int)}; this worker's processes get {@code env} from now on.
   */
  CliProcess startWorker(String name, int worker, Map<String, String> env) throws IOException {
    return startWorker(name, worker, MOVE_AT_ONCE, env);
  }

  /**
   * Starts worker number {@code worker} (0 or 1, its REST port) with a short session timeout and no
   * scheduled-rebalance delay, so a killed or stopped worker's tasks move on within seconds.
   */
  CliProcess startWorker(String name, int worker) throws IOException {
    return startWorker(name, worker, MOVE_AT_ONCE, lastEnv.getOrDefault(worker, Map.of()));
  }

  /**
   * Starts worker number {@code worker} with these worker properties ({@code key=value}) and
   * environment variables, its data under {@code root/name}.
   */
  CliProcess startWorker(
      String name, int worker, List<String> workerProperties, Map<String, String> env)
      throws IOException {
    lastProperties.put(worker, List.copyOf(workerProperties));
    lastEnv.put(worker, Map.copyOf(env));
    List<String> args = new ArrayList<>();
    args.add("--bootstrap-servers=127.0.0.1:" + kafkaPort);
    args.add("--data-dir=" + root.resolve(name));
    args.add("--rest-port=" + restPorts[worker]);
    workerProperties.forEach(p -> args.add("--worker-property=" + p));
    CliProcess process =
        CliProcess.startLocal(
            name,
            root.resolve("logs"),
            args,
            Path.of("").toAbsolutePath(),
            env,
            pluginDir,
            extraClasspath);
    processes.add(process);
    return process;
  }

  /**
   * Waits until worker number {@code worker} is ready. Its REST port was free when chosen, but
   * another socket may take it before the worker binds it (an outgoing connection's ephemeral
   * port): the worker then starts again on a new port, and its worker id changes with it.
   *
   * @return the ready process: {@code process} or the one started in its place
   */
  CliProcess awaitReady(CliProcess process, int worker) throws IOException {
    for (int attempt = 2; ; attempt++) {
      try {
        process.awaitReady(READY);
        return process;
      } catch (AssertionError e) {
        if (attempt > 3 || process.isAlive() || !process.output().contains(PORT_TAKEN)) {
          throw e;
        }
      }
      int lost = restPorts[worker];
      restPorts[worker] = FreePorts.one();
      System.out.printf(
          "%s lost REST port %d to another socket; again on %d%n",
          process.name(), lost, restPorts[worker]);
      process = restartOnNewPort(process.name() + "-" + attempt, worker);
    }
  }

  private CliProcess restartOnNewPort(String name, int worker) throws IOException {
    return startWorker(
        name,
        worker,
        lastProperties.getOrDefault(worker, MOVE_AT_ONCE),
        lastEnv.getOrDefault(worker, Map.of()));
  }

  void createTopic(String topic, int partitions) throws Exception {
    try (Admin admin = admin()) {
      // Order timestamps are old: without retention.ms=-1 the broker would delete them.
      NewTopic newTopic =
          new NewTopic(topic, partitions, (short) 1).configs(Map.of("retention.ms", "-1"));
      admin.createTopics(List.of(newTopic)).all().get();
      awaitLeaders(admin, topic, partitions);
    }
  }

  /**
   * Waits until the broker leads every partition: a producer that starts earlier gets
   * NOT_LEADER_OR_FOLLOWER for its first batch, and an idempotent one can then be stuck retrying
   * later batches with OUT_OF_ORDER_SEQUENCE_NUMBER until they expire.
   */
  private static void awaitLeaders(Admin admin, String topic, int partitions) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      long led = ledPartitions(admin, topic);
      if (led == partitions) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            topic + ": only " + led + " of " + partitions + " partitions have a leader after 60 s");
      }
      Thread.sleep(50); // polling the broker's metadata, not waiting for time to pass
    }
  }

  /** Partitions of {@code topic} with a leader; 0 while the broker's metadata lacks the topic. */
  private static long ledPartitions(Admin admin, String topic) throws Exception {
    try {
      TopicDescription description =
          admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
      return description.partitions().stream()
          .filter(p -> p.leader() != null && p.leader().id() >= 0)
          .count();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return 0; // created, not yet in the metadata the admin client was answered from
      }
      throw e;
    }
  }

  /** Produces the deterministic {@link Orders} as JSON with schemas, round-robin by offset. */
  void produceOrders(String topic, int partitions, long perPartition) {
    JsonConverter withSchemas = orderConverter();
    try (KafkaProducer<byte[], byte[]> producer = producer()) {
      for (long o = 0; o < perPartition; o++) {
        for (int p = 0; p < partitions; p++) {
          producer.send(order(withSchemas, topic, p, o));
        }
      }
      producer.flush();
    }
  }

  /** An idempotent producer: each partition's records land in the order they were sent. */
  KafkaProducer<byte[], byte[]> producer() {
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
  }

  static JsonConverter orderConverter() {
    JsonConverter withSchemas = new JsonConverter();
    withSchemas.configure(Map.of("schemas.enable", "true", "converter.type", "value"));
    return withSchemas;
  }

  /** The order meant for {@code offset} of {@code partition}. */
  static ProducerRecord<byte[], byte[]> order(
      JsonConverter withSchemas, String topic, int partition, long offset) {
    byte[] value =
        withSchemas.fromConnectData(topic, Orders.VALUE, Orders.value(partition, offset));
    return new ProducerRecord<>(
        topic, partition, Orders.timestamp(offset), Orders.key(partition, offset), value);
  }

  /**
   * Creates the topic and writes {@code perPartition} orders to each of its partitions. Each
   * partition's first record goes alone: on a topic this young a leader change can fail the first
   * batch after later ones landed, which an idempotent producer never gets past.
   */
  static void produceOrders(ConnectCluster cluster, String topic, int partitions, long perPartition)
      throws Exception {
    cluster.createTopic(topic, partitions);
    JsonConverter converter = orderConverter();
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (int p = 0; p < partitions; p++) {
        producer.send(order(converter, topic, p, 0)).get(1, java.util.concurrent.TimeUnit.MINUTES);
      }
      for (long o = 1; o < perPartition; o++) {
        for (int p = 0; p < partitions; p++) {
          producer.send(order(converter, topic, p, o));
        }
      }
      producer.flush();
    }
  }

  /** The end offset of each partition of the topic, as the broker reports it. */
  List<Long> endOffsets(String topic, int partitions) throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    try (Admin admin = admin()) {
      var offsets = admin.listOffsets(latest).all().get();
      List<Long> ends = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        ends.add(offsets.get(new TopicPartition(topic, p)).offset());
      }
      return ends;
    }
  }

  void putConnector(int worker, String name, Map<String, String> config) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(rest(worker) + "/connectors/" + name + "/config"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode())
        .as(() -> "PUT " + name + ": " + response.body() + "\n" + logTails())
        .isBetween(200, 201);
  }

  /** The last lines of each process's output, for a failure message. */
  private String logTails() {
    StringBuilder tails = new StringBuilder();
    for (CliProcess process : processes) {
      List<String> lines = process.output().lines().toList();
      tails.append("--- ").append(process.name()).append(" (last lines) ---\n");
      lines
          .subList(Math.max(0, lines.size() - 40), lines.size())
          .forEach(line -> tails.append(line).append('\n'));
    }
    return tails.toString();
  }

  /** The connector's status as the given worker reports it, or null while it cannot answer. */
  JsonNode status(int worker, String name) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(rest(worker) + "/connectors/" + name + "/status"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The worker id ({@code host:port}) the connector's task 0 runs on, or null. */
  String taskWorker(int worker, String name) {
    JsonNode status = status(worker, name);
    if (status == null || status.path("tasks").isEmpty()) {
      return null;
    }
    JsonNode task = status.path("tasks").get(0);
    return task.path("state").asText().equals("RUNNING") ? task.path("worker_id").asText() : null;
  }

  long parquetFiles(Path lake) {
    if (!Files.isDirectory(lake)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(lake)) {
      return files.filter(f -> f.toString().endsWith(".parquet")).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String rest(int worker) {
    return "http://127.0.0.1:" + restPorts[worker];
  }

  private Admin admin() {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort));
  }
}
