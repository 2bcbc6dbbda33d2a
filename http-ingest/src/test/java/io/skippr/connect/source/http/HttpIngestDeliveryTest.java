package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * When the answer is sent: after the transaction that holds the request's rows committed (in a task
 * with connector-defined boundaries), with every request whole in one poll's batch; and what a
 * stopping task answers to every request in flight.
 */
class HttpIngestDeliveryTest {

  @Test
  void inATransactionalTaskTheAnswerWaitsForTheCommit() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL)) {
      h.holdCommits(true);
      CompletableFuture<HttpResponse<String>> answer = postAsync(h, "/write", rows("tx", 0, 3));
      Await.until(Duration.ofSeconds(10), "rows polled", () -> h.sentTo("lp.tx").size() == 3);
      // Polled and handed to the producer, but not committed: no answer may have been sent.
      assertThat(answer).isNotDone();
      assertThat(h.commits()).isZero();
      h.holdCommits(false);
      assertThat(answer.get().statusCode()).isEqualTo(204);
      assertThat(h.commits()).isPositive();
    }
  }

  @Test
  void everyRequestIsWholeInOneBatch() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL)) {
      List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
      for (int request = 0; request < 12; request++) {
        answers.add(postAsync(h, "/write", rows("r" + request, 0, 3_500)));
      }
      for (CompletableFuture<HttpResponse<String>> answer : answers) {
        assertThat(answer.get().statusCode()).isEqualTo(204);
      }
      Map<String, Integer> batchOf = new HashMap<>();
      List<List<SourceRecord>> batches = h.batches();
      for (int b = 0; b < batches.size(); b++) {
        Set<String> topics = new HashSet<>();
        batches.get(b).forEach(r -> topics.add(r.topic()));
        for (String topic : topics) {
          assertThat(batchOf.put(topic, b)).as(topic + " split over batches").isNull();
        }
      }
      assertThat(batchOf).hasSize(12);
      assertThat(h.sent()).hasSize(12 * 3_500);
    }
  }

  @Test
  void stoppingAnswers503ToEveryRequestNotYetDurable() throws Exception {
    TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL);
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    try (RawUploads raw = new RawUploads(h.port())) {
      h.holdCommits(true);
      for (int request = 0; request < 5; request++) {
        answers.add(postAsync(h, "/write", rows("stop", request * 10, 10)));
      }
      Await.until(Duration.ofSeconds(10), "rows polled", () -> h.sentTo("lp.stop").size() == 50);
      RawUploads.Upload uploading = raw.stalled(1).get(0);
      Await.until(
          Duration.ofSeconds(10),
          "the upload to be received",
          () -> TaskJmx.metric("uploads-in-progress") == 1);
      h.close();
      for (CompletableFuture<HttpResponse<String>> answer : answers) {
        assertThat(answer).isDone();
        assertThat(answer.get().statusCode()).isEqualTo(503);
        assertThat(answer.get().headers().firstValue("Retry-After")).isPresent();
      }
      assertThat(uploading.readAll(Duration.ofSeconds(10)))
          .startsWith("HTTP/1.1 503")
          .contains("the connector is stopping");
    }
  }

  @Test
  void identicalRowsOfOneRequestAreAcknowledgedLikeAnyOther() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL)) {
      HttpResponse<String> lines = h.post("/write?db=x", "dup,h=a v=1i 1\ndup,h=a v=1i 1");
      assertThat(lines.statusCode()).as(lines.body()).isEqualTo(204);
      assertThat(h.sentTo("lp.dup")).hasSize(2);
      HttpResponse<String> items = h.post("/ingest/dups", "[{\"id\":3},{\"id\":3}]");
      assertThat(items.statusCode()).as(items.body()).isEqualTo(204);
      assertThat(h.sentTo("lp.dups")).hasSize(2);
      HttpResponse<String> rejected = h.post("/write", "bad v=\nbad v=\n");
      assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(400);
    }
  }

  @Test
  void keptAliveConnectionsAndChunkedBodies() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of());
        Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", h.port()), 5_000);
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      String first = "ka v=1i 1\n";
      out.write(
          ("POST /write HTTP/1.1\r\nHost: x\r\nContent-Length: "
                  + first.length()
                  + "\r\n\r\n"
                  + first)
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readResponse(in)).startsWith("HTTP/1.1 204");
      String chunk1 = "ka v=2i 2\n";
      String chunk2 = "ka v=3i 3\n";
      out.write(
          ("POST /write HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                  + Integer.toHexString(chunk1.length())
                  + "\r\n"
                  + chunk1
                  + "\r\n"
                  + Integer.toHexString(chunk2.length())
                  + "\r\n"
                  + chunk2
                  + "\r\n0\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readResponse(in)).startsWith("HTTP/1.1 204");
      assertThat(h.sentTo("lp.ka"))
          .extracting(r -> ((Struct) r.value()).get("v"))
          .containsExactly(1L, 2L, 3L);
    }
  }

  @Test
  void aTakenPortIsATaskErrorThatSaysSo() throws Exception {
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Map<String, String> props = Map.of("server.port", Integer.toString(taken.getLocalPort()));
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TaskHarness(props))
          .hasMessageContaining("the port is already in use on this worker")
          .hasMessageContaining("tasks.max");
    }
  }

  @Test
  void aServerThatStopsUnderTheTaskFailsTheTask() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL)) {
      assertThat(h.post("/write", "before v=1i 1").statusCode()).isEqualTo(204);
      int port = h.port();
      EndpointFaults.stopJetty(h.task);
      Await.until(Duration.ofSeconds(10), "poll() to fail the task", () -> h.failure() != null);
      assertThat(h.failure())
          .isInstanceOf(org.apache.kafka.connect.errors.ConnectException.class)
          .hasMessage(
              "HTTP ingest on port "
                  + port
                  + " stopped serving: the HTTP server stopped. Restart the task once the cause"
                  + " is fixed.");
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> h.get("/health"))
          .isInstanceOf(java.io.IOException.class);
    }
  }

  @Test
  void requestThreadsThatStopFailTheTaskAndHealthSaysWhy() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL)) {
      EndpointFaults.stopRequestThreads(h.task);
      Await.until(Duration.ofSeconds(10), "poll() to fail the task", () -> h.failure() != null);
      assertThat(h.failure()).hasMessageContaining("stopped serving: the request threads stopped");
      HttpResponse<String> health = h.get("/health");
      assertThat(health.statusCode()).isEqualTo(503);
      assertThat(health.body())
          .contains("\"status\":\"fail\"")
          .contains("\"message\":\"failed: the request threads stopped\"");
      HttpResponse<String> write = h.post("/write", "after v=1i 1");
      assertThat(write.statusCode()).isEqualTo(503);
      assertThat(h.sentTo("lp.after")).isEmpty();
    }
  }

  @Test
  void healthIsReadyWhileAccepting() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      HttpResponse<String> health = h.get("/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"status\":\"pass\"");
    }
  }

  /** Reads one response with an empty body (204) from a kept-alive connection. */
  private static String readResponse(InputStream in) throws Exception {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      assertThat(b).as("response so far: " + head).isNotNegative();
      head.append((char) b);
    }
    return head.toString();
  }

  private static String rows(String measurement, int from, int count) {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < from + count; i++) {
      sb.append(measurement).append(" v=").append(i).append("i ").append(i + 1).append('\n');
    }
    return sb.toString();
  }

  private static CompletableFuture<HttpResponse<String>> postAsync(
      TaskHarness h, String path, String body) {
    HttpRequest request =
        HttpRequest.newBuilder(h.uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    return java.net.http.HttpClient.newHttpClient()
        .sendAsync(request, HttpResponse.BodyHandlers.ofString());
  }
}
