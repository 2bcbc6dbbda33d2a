package io.skippr.connect.cli.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Writes to the HTTP ingest connector, insisting on 204 (every row acknowledged by Kafka). */
final class IngestClient {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private final String base;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  IngestClient(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  String base() {
    return base;
  }

  /** True when the server answers {@code GET /health} with 200. */
  boolean healthy() throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + "/health")).timeout(Duration.ofSeconds(2)).build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
  }

  /** Sends one write; anything but 204 is an error naming the status and the server's answer. */
  void write(DemoLoad.Request write) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + write.path()))
            .timeout(REQUEST_TIMEOUT)
            .header("Content-Type", write.contentType())
            .POST(HttpRequest.BodyPublishers.ofString(write.body()))
            .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new DemoException("POST " + base + write.path() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw DemoException.stopRequested();
    }
    if (response.statusCode() != 204) {
      throw new DemoException(
          "POST "
              + write.path()
              + " ("
              + write.rows()
              + " rows) answered "
              + response.statusCode()
              + " instead of 204: "
              + response.body().strip());
    }
  }
}
