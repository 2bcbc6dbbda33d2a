package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A stock Connect distributed worker in its own JVM, as {@code connect-distributed.sh
 * worker.properties} starts it: {@code org.apache.kafka.connect.cli.ConnectDistributed} with
 * Kafka's and Connect's jars on the class path and none of ours (the plugins come from {@code
 * plugin.path} only), the environment of the compose service in place of this JVM's AWS and Skippr
 * variables.
 */
final class ConnectWorkerProcess implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final Path log;
  private final URI rest;

  private ConnectWorkerProcess(Process process, Path log, URI rest) {
    this.process = process;
    this.log = log;
    this.rest = rest;
  }

  /**
   * How a worker process is started.
   *
   * @param dir where its worker.properties, logging config and log go
   * @param worker the worker config
   * @param environment variables set in place of this JVM's AWS, Skippr and data-dir variables
   * @param jvmOptions options before the main class (e.g. {@code KAFKA_OPTS}' {@code -javaagent})
   * @param runAs a command prefix that runs it as another user (empty: as this one)
   * @param workingDirectory its working directory
   */
  record Launch(
      Path dir,
      Properties worker,
      Map<String, String> environment,
      List<String> jvmOptions,
      List<String> runAs,
      Path workingDirectory) {}

  /**
   * A single worker of its own group on {@code bootstrap}, REST on 127.0.0.1:{@code restPort},
   * loading the built plugin with service_load discovery.
   */
  static Properties plainWorker(String bootstrap, int restPort) {
    Properties props = new Properties();
    props.setProperty("bootstrap.servers", bootstrap);
    props.setProperty("group.id", "worker-" + restPort);
    props.setProperty("listeners", "http://127.0.0.1:" + restPort);
    props.setProperty("plugin.path", System.getProperty("skippr.plugin.dir"));
    props.setProperty("plugin.discovery", "service_load");
    for (String topic : List.of("config", "offset", "status")) {
      props.setProperty(topic + ".storage.topic", "worker-" + restPort + "-" + topic + "s");
      props.setProperty(topic + ".storage.replication.factor", "1");
    }
    props.setProperty("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    props.setProperty("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    return props;
  }

  /** Starts the worker with {@code worker} written to {@code dir/worker.properties}. */
  static ConnectWorkerProcess start(Path dir, Properties worker, Map<String, String> environment)
      throws IOException {
    return start(new Launch(dir, worker, environment, List.of(), List.of(), dir));
  }

  /**
   * Starts the worker as {@code launch} says. Its files are readable by others, so a worker run as
   * another user can read them.
   */
  static ConnectWorkerProcess start(Launch launch) throws IOException {
    Path dir = launch.dir();
    Properties worker = launch.worker();
    Path config = dir.resolve("worker.properties");
    try (Writer out = Files.newBufferedWriter(config)) {
      worker.store(out, "docker/worker.properties with local addresses");
    }
    Path log4j = dir.resolve("log4j2.properties");
    Files.writeString(
        log4j,
        String.join(
            "\n",
            "appender.out.type = Console",
            "appender.out.name = OUT",
            "appender.out.layout.type = PatternLayout",
            "appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1} - %m%n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.out.ref = OUT",
            "logger.reflections.name = org.reflections",
            "logger.reflections.level = ERROR",
            ""));
    List<String> command = new ArrayList<>(launch.runAs());
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(launch.jvmOptions());
    command.add("-Dlog4j2.configurationFile=" + log4j);
    command.add("-cp");
    command.add(classpath());
    command.add("org.apache.kafka.connect.cli.ConnectDistributed");
    command.add(config.toString());
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(launch.workingDirectory().toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("SKIPPR_"));
    builder.environment().keySet().removeIf(k -> k.equals("DATA_DIR") || k.equals("WAL_STORAGE"));
    builder.environment().putAll(launch.environment());
    Path log = dir.resolve("worker.log");
    Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    String listener = worker.getProperty("listeners");
    return new ConnectWorkerProcess(process, log, URI.create(listener.replaceFirst("/*$", "")));
  }

  /**
   * Kafka's and Connect's jars: the CLI's runtime class path (which {@code ./skippr local} runs a
   * worker with) without Skippr's own jars and DuckDB.
   */
  private static String classpath() throws IOException {
    try (Stream<Path> jars = Files.list(ComposeFiles.ROOT.resolve("cli/target/lib"))) {
      List<String> kept =
          jars.map(Path::toString)
              .filter(j -> j.endsWith(".jar"))
              .filter(j -> !j.contains("/skippr-") && !j.contains("/duckdb"))
              .sorted()
              .toList();
      assertThat(kept).as("cli/target/lib (build the cli module first)").isNotEmpty();
      return String.join(":", kept);
    }
  }

  /** Waits until the REST API answers and lists the given plugin classes. */
  void awaitReady(Duration timeout, List<String> pluginClasses) {
    Await.until(
        timeout,
        () -> "worker at " + rest + " listing " + pluginClasses + "; log:\n" + tail(),
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError("worker exited with " + process.exitValue() + ":\n" + tail());
          }
          JsonNode plugins = get("/connector-plugins?connectorsOnly=false");
          if (plugins == null) {
            return false;
          }
          List<String> listed = new ArrayList<>();
          plugins.forEach(p -> listed.add(p.path("class").asText()));
          return listed.containsAll(pluginClasses);
        });
  }

  /** {@code PUT /connectors/{name}/config}, as register.sh does. */
  void putConnector(String name, Map<String, String> config) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(rest.resolve("/connectors/" + name + "/config"))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config)))
            .build();
    HttpResponse<String> response = send(request);
    assertThat(response.statusCode()).as(name + ": " + response.body()).isBetween(200, 201);
  }

  /** A PUT without a body, e.g. {@code /connectors/NAME/pause}; fails unless it is accepted. */
  void put(String pathAndQuery) throws IOException {
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(rest.resolve(pathAndQuery))
                .timeout(Duration.ofSeconds(60))
                .PUT(HttpRequest.BodyPublishers.noBody())
                .build());
    assertThat(response.statusCode()).as(pathAndQuery + ": " + response.body()).isBetween(200, 204);
  }

  /** True when the connector and {@code tasks} tasks are RUNNING; fails on a FAILED one. */
  boolean running(String name, int tasks) {
    JsonNode status = get("/connectors/" + name + "/status");
    if (status == null) {
      return false;
    }
    List<JsonNode> states = new ArrayList<>();
    states.add(status.path("connector"));
    status.path("tasks").forEach(states::add);
    for (JsonNode state : states) {
      if (state.path("state").asText().equals("FAILED")) {
        throw new AssertionError(name + " failed: " + state.path("trace").asText());
      }
    }
    return status.path("tasks").size() == tasks
        && states.stream().allMatch(s -> s.path("state").asText().equals("RUNNING"));
  }

  /** The JSON answer to a GET, or null while the worker cannot answer it. */
  JsonNode get(String pathAndQuery) {
    try {
      HttpResponse<String> response =
          send(
              HttpRequest.newBuilder(rest.resolve(pathAndQuery))
                  .timeout(Duration.ofSeconds(10))
                  .build());
      return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static HttpResponse<String> send(HttpRequest request) throws IOException {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  String tail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SIGTERM (Connect stops its connectors), then SIGKILL after 30 s. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
