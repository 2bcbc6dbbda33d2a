package io.skippr.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/** Runs the local broker and worker until SIGINT or SIGTERM, then stops both cleanly. */
final class LocalStack {
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

  /** Where and on which ports the stack runs. */
  record Settings(Path dataDir, int kafkaPort, int controllerPort, int restPort, Path pluginDir) {}

  private final Settings settings;
  private final CountDownLatch stopRequested = new CountDownLatch(1);

  LocalStack(Settings settings) {
    this.settings = settings;
  }

  int runUntilSignalled() {
    Preflight.requirePluginDir(settings.pluginDir());
    Preflight.requireWritableDir(settings.dataDir());
    Preflight.requireFreePort(settings.kafkaPort(), "--kafka-port");
    Preflight.requireFreePort(settings.controllerPort(), "--controller-port");
    Preflight.requireFreePort(settings.restPort(), "--rest-port");
    // Handle the signals ourselves so a requested stop is an orderly one that exits 0.
    Signal.handle(new Signal("TERM"), signal -> stopRequested.countDown());
    Signal.handle(new Signal("INT"), signal -> stopRequested.countDown());

    say(
        "starting Kafka on 127.0.0.1:"
            + settings.kafkaPort()
            + " (data: "
            + settings.dataDir()
            + ")");
    try (EmbeddedBroker broker =
            new EmbeddedBroker(
                settings.dataDir().resolve("kafka"),
                settings.kafkaPort(),
                settings.controllerPort());
        LocalWorker worker =
            new LocalWorker(broker.bootstrapServers(), settings.restPort(), settings.pluginDir())) {
      broker.start();
      say("starting Kafka Connect (plugin.path " + settings.pluginDir() + ")");
      worker.start();
      String rest = "http://127.0.0.1:" + settings.restPort();
      List<String> plugins = awaitPlugins(rest);
      say(
          "ready: Kafka Connect REST API at "
              + rest
              + " (Kafka at "
              + broker.bootstrapServers()
              + ")");
      plugins.forEach(p -> say("  plugin " + p));
      awaitStopRequest();
      say("stopping");
    }
    say("stopped");
    return 0;
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
