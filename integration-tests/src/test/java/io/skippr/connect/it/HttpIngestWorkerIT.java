package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.FreePorts;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP ingest in a real worker process ({@code skippr local}: a Connect distributed worker with
 * {@code plugin.discovery=service_load} and only the built plugin on its plugin path, none of our
 * jars on its class path), watched over remote JMX: the ingest metrics are Connect plugin metrics;
 * the ingest server runs the plugin's own Jetty, isolated from the Jetty of the worker's REST
 * server; and a second task on the same worker fails with an error that says why.
 */
class HttpIngestWorkerIT {

  private static final String CONNECTOR = "jmx-ingest";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path root;
  private static final List<CliProcess> processes = new ArrayList<>();
  private static ChaosStack stack;
  private static JMXConnector jmx;
  private static MBeanServerConnection mbeans;
  private static int port;

  @BeforeAll
  static void start() throws Exception {
    stack = ChaosStack.start(root, processes);
    int jmxPort = FreePorts.one();
    String jmxOptions =
        String.join(
            " ",
            "-Dcom.sun.management.jmxremote.port=" + jmxPort,
            "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
            "-Dcom.sun.management.jmxremote.host=127.0.0.1",
            "-Djava.rmi.server.hostname=127.0.0.1",
            "-Dcom.sun.management.jmxremote.authenticate=false",
            "-Dcom.sun.management.jmxremote.ssl=false");
    stack.awaitReady(
        stack.startWorker(
            "worker", 0, ChaosStack.MOVE_AT_ONCE, Map.of("JAVA_TOOL_OPTIONS", jmxOptions)),
        0);
    jmx =
        JMXConnectorFactory.connect(
            new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"));
    mbeans = jmx.getMBeanServerConnection();
    port = FreePorts.one();
    stack.putConnector(0, CONNECTOR, ingestConfig(port, 1));
    Await.until(Duration.ofMinutes(1), "ingest answering", () -> status("/ping") == 204);
  }

  @AfterAll
  static void stop() throws Exception {
    if (jmx != null) {
      jmx.close();
    }
    CliProcess.stopAll(processes);
  }

  @Test
  void metricsArePluginMetricsReadOverJmx() throws Exception {
    ObjectName name =
        new ObjectName("kafka.connect:type=plugins,connector=" + CONNECTOR + ",task=0");
    String accepted = "jmx v=1i 1\njmx v=2i 2\n";
    String partial = "jmx v=1.5 3\njmx v=3i 4\n";
    String json = "{\"a\":1}";
    assertThat(post("/write", accepted)).isEqualTo(204);
    assertThat(post("/write", partial)).isEqualTo(400);
    assertThat(post("/ingest/jmx_events", json)).isEqualTo(204);
    Await.until(
        Duration.ofSeconds(30),
        "the plugin metrics of " + name,
        () -> registered(name) && metric(name, "requests-2xx-total") >= 2);
    assertThat(metric(name, "requests-4xx-total")).isEqualTo(1);
    assertThat(metric(name, "rows-accepted-total")).isEqualTo(4);
    assertThat(metric(name, "rows-rejected-total")).isEqualTo(1);
    assertThat(metric(name, "bytes-in-total"))
        .isEqualTo(accepted.length() + partial.length() + json.length());
    assertThat(metric(name, "rows-in-flight")).isZero();
    assertThat(metric(name, "bytes-in-flight")).isZero();
    assertThat(metric(name, "ack-latency-max")).isPositive();
    assertThat(metric(name, "ack-latency-p99")).isPositive();
    assertThat(metric(name, "requests-2xx-rate")).isPositive();
    System.out.printf(
        "ingest metrics over remote JMX: %s ack-latency avg %.1f ms, max %.1f ms, p99 %.1f ms%n",
        name,
        metric(name, "ack-latency-avg"),
        metric(name, "ack-latency-max"),
        metric(name, "ack-latency-p99"));
  }

  /**
   * The ingest server's threads run Jetty classes of the plugin's class loader (unnamed), the REST
   * server's threads Jetty classes of the worker's class path (the local stack's worker loader,
   * which leaves out the project's own jars, so the connectors come from the plugin only).
   */
  @Test
  void theIngestServerRunsThePluginsOwnJetty() throws Exception {
    ThreadMXBean threads =
        ManagementFactory.newPlatformMXBeanProxy(
            mbeans, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
    ThreadInfo[] all = threads.dumpAllThreads(false, false);
    List<String> ingest = jettyLoaders(all, n -> n.startsWith("skippr-http-ingest-io"));
    List<String> rest = jettyLoaders(all, n -> n.startsWith("qtp"));
    System.out.printf("Jetty class loaders: ingest threads %s, REST threads %s%n", ingest, rest);
    assertThat(ingest).as("Jetty frames of the ingest server's threads").isNotEmpty();
    assertThat(rest)
        .as("Jetty frames of the REST server's threads")
        .containsOnly("skippr-local-worker");
    assertThat(ingest).containsOnly("plugin (unnamed)");
  }

  @Test
  void aSecondTaskOnTheSameWorkerFailsSayingThePortIsTaken() throws Exception {
    stack.putConnector(0, "ingest-twice", ingestConfig(FreePorts.one(), 2));
    Await.until(
        Duration.ofSeconds(60),
        () -> "one task running, one failed: " + stack.status(0, "ingest-twice"),
        () -> states("ingest-twice").equals(List.of("FAILED", "RUNNING")));
    String trace = "";
    for (JsonNode task : stack.status(0, "ingest-twice").path("tasks")) {
      trace += task.path("trace").asText("");
    }
    assertThat(trace)
        .contains("the port is already in use on this worker")
        .contains("keep tasks.max at or below the number of workers");
  }

  private static List<String> states(String connector) {
    JsonNode status = stack.status(0, connector);
    List<String> states = new ArrayList<>();
    if (status != null) {
      status.path("tasks").forEach(t -> states.add(t.path("state").asText()));
    }
    return states.stream().sorted().toList();
  }

  private static Map<String, String> ingestConfig(int port, int tasks) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", Integer.toString(tasks));
    config.put("server.port", Integer.toString(port));
    config.put("topic.prefix", "jmx.");
    config.put("catalog.store", "memory");
    config.put("exactly.once.support", "required");
    config.put("transaction.boundary", "connector");
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    return config;
  }

  private static List<String> jettyLoaders(ThreadInfo[] threads, Predicate<String> name) {
    return Stream.of(threads)
        .filter(t -> name.test(t.getThreadName()))
        .flatMap(t -> Stream.of(t.getStackTrace()))
        .filter(f -> f.getClassName().startsWith("org.eclipse.jetty."))
        .map(f -> Objects.toString(f.getClassLoaderName(), "plugin (unnamed)"))
        .distinct()
        .toList();
  }

  private static int post(String path, String body) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static int status(String path) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (java.io.IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static boolean registered(ObjectName name) {
    try {
      return mbeans.isRegistered(name);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static double metric(ObjectName name, String attribute) {
    try {
      return ((Number) mbeans.getAttribute(name, attribute)).doubleValue();
    } catch (Exception e) {
      throw new IllegalStateException(name + " " + attribute, e);
    }
  }
}
