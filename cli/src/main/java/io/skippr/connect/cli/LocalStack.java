package io.skippr.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.cli.demo.DemoException;
import io.skippr.connect.cli.demo.LocalDemo;
import io.skippr.connect.common.ProcessEnvironment;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * Runs the local broker and worker (or only one of them) until SIGINT or SIGTERM, then stops them
 * cleanly.
 */
final class LocalStack {
  /** The variable the stack's data directory is given to everything it runs as. */
  static final String DATA_DIR_ENV = "DATA_DIR";

  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

  /**
   * Where and on which ports the stack runs. A non-null {@code externalBootstrap} runs only the
   * worker, against that cluster; {@code runWorker == false} runs only the broker. A non-null
   * {@code demo} runs the demo once the worker is ready.
   */
  record Settings(
      Path dataDir,
      int kafkaPort,
      int controllerPort,
      int restPort,
      Path pluginDir,
      boolean runWorker,
      String externalBootstrap,
      Map<String, String> workerProperties,
      LocalDemo.Options demo) {
    boolean runBroker() {
      return externalBootstrap == null;
    }
  }

  private final Settings settings;
  private final CountDownLatch stopRequested = new CountDownLatch(1);

  LocalStack(Settings settings) {
    this.settings = settings;
  }

  int runUntilSignalled() {
    Preflight.requireWritableDir(settings.dataDir());
    try (DataDirLock lock = DataDirLock.take(settings.dataDir(), "skippr local")) {
      preflight();
      // Connectors and transforms in this worker default to the data directory (the state store
      // under state/, contracts), exactly as if the process had been started with DATA_DIR set.
      ProcessEnvironment.set(DATA_DIR_ENV, settings.dataDir().toString());
      return runLocked();
    } catch (IOException e) {
      say("could not release the lock of " + settings.dataDir() + ": " + e);
      return 1;
    }
  }

  private int runLocked() {
    // Handle the signals ourselves so a requested stop is an orderly one that exits 0.
    Signal.handle(new Signal("TERM"), signal -> stopRequested.countDown());
    Signal.handle(new Signal("INT"), signal -> stopRequested.countDown());

    EmbeddedBroker broker = null;
    LocalWorker worker = null;
    int exitCode = 0;
    try {
      String bootstrap = settings.externalBootstrap();
      if (settings.runBroker()) {
        say(
            "starting Kafka on 127.0.0.1:"
                + settings.kafkaPort()
                + " (data: "
                + settings.dataDir()
                + ")");
        broker =
            new EmbeddedBroker(
                settings.dataDir().resolve("kafka"),
                settings.kafkaPort(),
                settings.controllerPort());
        broker.start();
        bootstrap = broker.bootstrapServers();
      }
      if (settings.runWorker()) {
        say("starting Kafka Connect (plugin.path " + settings.pluginDir() + ")");
        worker =
            new LocalWorker(
                bootstrap, settings.restPort(), settings.pluginDir(), settings.workerProperties());
        worker.start();
        String rest = "http://127.0.0.1:" + settings.restPort();
        List<String> plugins = awaitPlugins(rest);
        say("ready: Kafka Connect REST API at " + rest + " (Kafka at " + bootstrap + ")");
        plugins.forEach(p -> say("  plugin " + p));
        if (settings.demo() != null && !runDemo(rest, bootstrap)) {
          exitCode = 1;
        }
      } else {
        say("ready: Kafka at " + bootstrap + " (no Connect worker)");
      }
      if (exitCode == 0) {
        awaitStopRequest();
      }
      say("stopping");
    } finally {
      // The worker first: it needs the broker to stop in order.
      closeAll(worker, broker);
    }
    say("stopped");
    return exitCode;
  }

  /** Runs the demo; false when it failed (the reason is on stderr). */
  private boolean runDemo(String rest, String bootstrap) {
    try {
      new LocalDemo(
              settings.demo(),
              rest,
              bootstrap,
              settings.dataDir(),
              () -> stopRequested.getCount() == 0,
              System.out)
          .run();
      return true;
    } catch (DemoException e) {
      if (e.isStopRequested()) {
        return true;
      }
      System.err.println("skippr local: demo failed: " + e.getMessage());
    } catch (RuntimeException e) {
      // A bug rather than a state of the stack: keep the detail.
      System.err.println("skippr local: demo failed: " + e);
    }
    say("demo failed (see above); stopping");
    return false;
  }

  private void preflight() {
    if (settings.runBroker()) {
      Preflight.requireFreePort(settings.kafkaPort(), "--kafka-port");
      Preflight.requireFreePort(settings.controllerPort(), "--controller-port");
    }
    if (settings.runWorker()) {
      Preflight.requirePluginDir(settings.pluginDir());
      Preflight.requireFreePort(settings.restPort(), "--rest-port");
    }
    if (settings.demo() != null) {
      Preflight.requireFreePort(settings.demo().ingestPort(), "--ingest-port");
    }
  }

  private static void closeAll(AutoCloseable... parts) {
    for (AutoCloseable part : parts) {
      if (part != null) {
        try {
          part.close();
        } catch (Exception e) {
          say("error while stopping: " + e);
        }
      }
    }
  }

  /** Polls the REST API until the worker answers, returning the Skippr plugins it reports. */
  private List<String> awaitPlugins(String rest) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(rest + "/connector-plugins?connectorsOnly=false"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline && stopRequested.getCount() > 0) {
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return skipprPlugins(response.body());
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StartupException("interrupted while waiting for Kafka Connect", e);
      }
      pause(Duration.ofMillis(250));
    }
    throw new StartupException("Kafka Connect did not become ready within " + READY_TIMEOUT);
  }

  private static List<String> skipprPlugins(String body) throws IOException {
    List<String> plugins = new ArrayList<>();
    for (JsonNode plugin : new ObjectMapper().readTree(body)) {
      String name = plugin.get("class").asText();
      if (name.startsWith("io.skippr.")) {
        plugins.add(name + " (" + plugin.get("type").asText() + ")");
      }
    }
    return plugins;
  }

  private void awaitStopRequest() {
    try {
      stopRequested.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void say(String line) {
    System.out.println("skippr local: " + line);
    System.out.flush();
  }
}
