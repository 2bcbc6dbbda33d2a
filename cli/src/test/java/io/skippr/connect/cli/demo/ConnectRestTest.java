package io.skippr.connect.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against a stand-in for Connect's REST API that answers like Connect does. */
class ConnectRestTest {
  private HttpServer server;
  private final List<String> calls = new ArrayList<>();
  private volatile String storedConfig;
  private volatile String status;
  private ConnectRest rest;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/connectors/c/config", this::config);
    server.createContext(
        "/connectors/c/status",
        exchange -> answer(exchange, status == null ? 404 : 200, status == null ? "{}" : status));
    server.start();
    rest = new ConnectRest("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void config(HttpExchange exchange) throws IOException {
    calls.add(exchange.getRequestMethod());
    if (exchange.getRequestMethod().equals("GET")) {
      answer(
          exchange, storedConfig == null ? 404 : 200, storedConfig == null ? "{}" : storedConfig);
      return;
    }
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    if (body.contains("\"bad\"")) {
      answer(exchange, 400, "{\"error_code\":400,\"message\":\"1 error: bad\"}");
      return;
    }
    boolean created = storedConfig == null;
    storedConfig = body.replaceFirst("\\{", "{\"name\":\"c\",");
    answer(exchange, created ? 201 : 200, "{}");
  }

  private static void answer(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(code, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Test
  void createsThenSkipsAnUnchangedConfigThenUpdatesAChangedOne() {
    assertThat(rest.ensure("c", Map.of("k", "1"))).isEqualTo(ConnectRest.Outcome.CREATED);
    assertThat(rest.ensure("c", Map.of("k", "1"))).isEqualTo(ConnectRest.Outcome.UNCHANGED);
    assertThat(rest.ensure("c", Map.of("k", "2"))).isEqualTo(ConnectRest.Outcome.UPDATED);
    assertThat(calls).containsExactly("GET", "PUT", "GET", "GET", "PUT");
  }

  @Test
  void aRefusedConfigIsAnErrorWithConnectsMessage() {
    assertThatThrownBy(() -> rest.ensure("c", Map.of("k", "bad")))
        .isInstanceOf(DemoException.class)
        .hasMessageContaining("Connect refused the config of c (400)")
        .hasMessageContaining("1 error: bad");
  }

  @Test
  void runningNeedsTheConnectorAndEveryTaskRunningAndReportsAFailedTask() throws IOException {
    assertThat(rest.running("c")).isFalse();
    status = "{\"connector\":{\"state\":\"RUNNING\"},\"tasks\":[]}";
    assertThat(rest.running("c")).isFalse();
    status = "{\"connector\":{\"state\":\"RUNNING\"},\"tasks\":[{\"id\":0,\"state\":\"RUNNING\"}]}";
    assertThat(rest.running("c")).isTrue();
    status =
        "{\"connector\":{\"state\":\"RUNNING\"},\"tasks\":[{\"id\":0,\"state\":\"FAILED\","
            + "\"trace\":\"org.apache.kafka.connect.errors.ConnectException: port in use\\n\\tat x\"}]}";
    assertThatThrownBy(() -> rest.running("c"))
        .isInstanceOf(DemoException.class)
        .hasMessage(
            "c task 0 failed: org.apache.kafka.connect.errors.ConnectException: port in use");
  }
}
