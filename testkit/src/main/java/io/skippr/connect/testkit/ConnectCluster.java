package io.skippr.connect.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;

/**
 * A real single-broker KRaft cluster and Connect worker(s) in this JVM that load Skippr Connect
 * from the built plugin directory, the way a user's worker would.
 *
 * <p>Plugins are found only through {@code META-INF/services} ({@code plugin.discovery=
 * service_load}), so a plugin missing from a services file is missing here too. Start one per test
 * class: start-up takes seconds.
 */
public final class ConnectCluster implements AutoCloseable {
  /** System property naming the plugin.path entry that holds the built plugin. */
  public static final String PLUGIN_DIR_PROPERTY = "skippr.plugin.dir";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private final EmbeddedConnectCluster connect;

  private ConnectCluster(EmbeddedConnectCluster connect) {
    this.connect = connect;
  }

  /** Starts a cluster with one worker. */
  public static ConnectCluster start(String name) {
    return start(name, 1, Map.of());
  }

  /** Starts a cluster; {@code workerProps} override the defaults below. */
  public static ConnectCluster start(String name, int workers, Map<String, String> workerProps) {
    return start(name, workers, workerProps, Map.of());
  }

  /** Starts a cluster; {@code workerProps} and {@code brokerOverrides} override the defaults. */
  public static ConnectCluster start(
      String name,
      int workers,
      Map<String, String> workerProps,
      Map<String, String> brokerOverrides) {
    Map<String, String> props = new HashMap<>();
    props.put("plugin.path", pluginDir().toString());
    props.put("plugin.discovery", "service_load");
    // Sinks commit every second so tests see committed offsets quickly.
    props.put("offset.flush.interval.ms", "1000");
    props.putAll(workerProps);
    Properties brokerProps = new Properties();
    brokerProps.put("auto.create.topics.enable", "false");
    brokerProps.put("transaction.state.log.replication.factor", "1");
    brokerProps.put("transaction.state.log.min.isr", "1");
    brokerProps.putAll(brokerOverrides);
    EmbeddedConnectCluster cluster =
        new EmbeddedConnectCluster.Builder()
            .name(name)
            .numWorkers(workers)
            .numBrokers(1)
            .workerProps(props)
            .brokerProps(brokerProps)
            .maskExitProcedures(true)
            .build();
    cluster.start();
    return new ConnectCluster(cluster);
  }

  /**
   * The plugin.path entry holding the built plugin: the {@value #PLUGIN_DIR_PROPERTY} system
   * property, else {@code distribution/target/plugin} found from the working directory upwards.
   */
  public static Path pluginDir() {
    String configured = System.getProperty(PLUGIN_DIR_PROPERTY);
    Path dir = configured != null ? Paths.get(configured) : findFromWorkingDir();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new IllegalStateException(
          "built plugin not found at "
              + dir
              + ": run `mvn package` first (it builds distribution/target/plugin)");
    }
    return dir.toAbsolutePath().normalize();
  }

  private static Path findFromWorkingDir() {
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("distribution/target/plugin");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  public EmbeddedConnectCluster connect() {
    return connect;
  }

  public EmbeddedKafkaCluster kafka() {
    return connect.kafka();
  }

  public String bootstrapServers() {
    return connect.kafka().bootstrapServers();
  }

  public void createTopic(String topic, int partitions) {
    connect.kafka().createTopic(topic, partitions);
  }

  /** A real producer for bulk data; {@code kafka().produce()} waits for every single record. */
  public KafkaProducer<byte[], byte[]> bulkProducer() {
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    // A loaded 2-core machine can stall the broker for seconds: a batch that expires resets the
    // producer's sequence and its records are lost, so expiry must be out of reach.
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 120_000);
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 900_000);
    return connect.kafka().createProducer(props);
  }

  /** Every plugin class the workers report through {@code GET /connector-plugins}. */
  public List<String> pluginClasses() {
    List<String> classes = new ArrayList<>();
    for (JsonNode plugin : restGet("connector-plugins?connectorsOnly=false")) {
      classes.add(plugin.get("class").asText());
    }
    return classes;
  }

  /** GETs a REST resource of the worker (e.g. {@code connectors/x/status}) and parses the JSON. */
  public JsonNode restGet(String resource) {
    URI uri = URI.create(connect.endpointForResource(resource));
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "GET " + uri + " -> " + response.statusCode() + ": " + response.body());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits until the connector and exactly {@code tasks} tasks are RUNNING. */
  public void awaitRunning(String connector, int tasks, Duration timeout) {
    Await.until(
        timeout,
        () -> connector + " with " + tasks + " running tasks; status: " + statusOrError(connector),
        () -> {
          ConnectorStateInfo status = connect.connectorStatus(connector);
          return "RUNNING".equals(status.connector().state())
              && status.tasks().size() == tasks
              && status.tasks().stream().allMatch(t -> "RUNNING".equals(t.state()));
        });
  }

  /** The connector's status as text, or why it cannot be read. */
  public String statusOrError(String connector) {
    try {
      ConnectorStateInfo status = connect.connectorStatus(connector);
      StringBuilder out = new StringBuilder(status.connector().state());
      status
          .tasks()
          .forEach(
              t ->
                  out.append(" task")
                      .append(t.id())
                      .append('=')
                      .append(t.state())
                      .append(t.trace() == null ? "" : " " + t.trace()));
      return out.toString();
    } catch (RuntimeException e) {
      return "unavailable (" + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    connect.stop();
  }
}
