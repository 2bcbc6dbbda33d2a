package io.skippr.connect.cli.demo;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The few calls of the Connect REST API the demo needs. */
final class ConnectRest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** What {@link #ensure} did. */
  enum Outcome {
    CREATED,
    UPDATED,
    UNCHANGED
  }

  private final String rest;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  ConnectRest(String rest) {
    this.rest = rest;
  }

  /** Creates the connector, or updates it when its config differs (a second run: skip). */
  Outcome ensure(String name, Map<String, String> config) {
    HttpResponse<String> current = send(request(name + "/config").GET());
    if (current.statusCode() == 200 && sameConfig(name, config, current.body())) {
      return Outcome.UNCHANGED;
    }
    HttpResponse<String> put =
        send(
            request(name + "/config")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(toJson(config))));
    if (put.statusCode() == 201) {
      return Outcome.CREATED;
    }
    if (put.statusCode() == 200) {
      return Outcome.UPDATED;
    }
    throw new DemoException(
        "Connect refused the config of " + name + " (" + put.statusCode() + "): " + put.body());
  }

  /** True when the connector and all its tasks (at least one) run; fails on a failed one. */
  boolean running(String name) throws IOException {
    HttpResponse<String> response = send(request(name + "/status").GET());
    if (response.statusCode() != 200) {
      return false;
    }
    JsonNode status = JSON.readTree(response.body());
    failIfFailed(name, status.path("connector"));
    JsonNode tasks = status.path("tasks");
    boolean allRunning = tasks.size() > 0;
    for (JsonNode task : tasks) {
      failIfFailed(name + " task " + task.path("id").asText(), task);
      allRunning &= "RUNNING".equals(task.path("state").asText());
    }
    return allRunning && "RUNNING".equals(status.path("connector").path("state").asText());
  }

  private static void failIfFailed(String what, JsonNode state) {
    if ("FAILED".equals(state.path("state").asText())) {
      String trace = state.path("trace").asText("");
      int end = trace.indexOf('\n');
      throw new DemoException(what + " failed: " + (end < 0 ? trace : trace.substring(0, end)));
    }
  }

  private static boolean sameConfig(String name, Map<String, String> wanted, String body) {
    try {
      Map<String, String> current = JSON.readValue(body, new TypeReference<>() {});
      Map<String, String> expected = new HashMap<>(wanted);
      expected.put("name", name);
      return expected.equals(current);
    } catch (IOException e) {
      return false;
    }
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(rest + "/connectors/" + path))
        .timeout(REQUEST_TIMEOUT);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    HttpRequest built = request.build();
    try {
      return http.send(built, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new DemoException(built.method() + " " + built.uri() + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw DemoException.stopRequested();
    }
  }

  private static String toJson(Map<String, String> config) {
    try {
      return JSON.writeValueAsString(config);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
