package io.skippr.connect.source.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Runs a real task (HTTP server on a free port) and plays Connect's part: a thread polls the task
 * and acknowledges each record via commitRecord — or holds back, to simulate a slow or absent
 * Kafka.
 */
final class TaskHarness implements AutoCloseable {

  enum Acks {
    ALL,
    NONE,
    NULL_METADATA
  }

  final HttpIngestSourceTask task = new HttpIngestSourceTask();
  private final List<SourceRecord> sent = new ArrayList<>();
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private volatile Acks acks = Acks.ALL;
  private volatile boolean polling = true;
  private volatile boolean paused;
  private volatile boolean running = true;
  private final Thread connect;

  TaskHarness(Map<String, String> overrides) {
    Map<String, String> props = new HashMap<>();
    props.put("server.port", "0");
    props.put("topic.prefix", "lp.");
    props.putAll(overrides);
    task.start(props);
    connect = new Thread(this::playConnect, "fake-connect");
    connect.start();
  }

  void acks(Acks mode) {
    this.acks = mode;
  }

  /** Switches polling; switching off waits until no poll() is in progress any more. */
  void polling(boolean on) throws InterruptedException {
    this.polling = on;
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!on && !paused && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
  }

  private void playConnect() {
    long offset = 0;
    while (running) {
      try {
        paused = !polling;
        if (paused) {
          Thread.sleep(5);
          continue;
        }
        List<SourceRecord> batch = task.poll();
        if (batch == null) {
          continue;
        }
        for (SourceRecord r : batch) {
          synchronized (sent) {
            sent.add(r);
          }
          switch (acks) {
            case ALL -> task.commitRecord(r, metadata(r, offset++));
            case NULL_METADATA -> task.commitRecord(r, null);
            default -> {}
          }
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static RecordMetadata metadata(SourceRecord r, long offset) {
    return new RecordMetadata(new TopicPartition(r.topic(), 0), offset, 0, 0L, 0, 0);
  }

  /** A copy of the records Connect has taken so far, in order. */
  List<SourceRecord> sent() {
    synchronized (sent) {
      return new ArrayList<>(sent);
    }
  }

  void clearSent() {
    synchronized (sent) {
      sent.clear();
    }
  }

  List<SourceRecord> sentTo(String topic) {
    List<SourceRecord> out = new ArrayList<>();
    for (SourceRecord r : sent()) {
      if (r.topic().equals(topic)) {
        out.add(r);
      }
    }
    return out;
  }

  HttpResponse<String> post(String pathAndQuery, String body, String... headers)
      throws IOException, InterruptedException {
    return post(pathAndQuery, body.getBytes(StandardCharsets.UTF_8), headers);
  }

  HttpResponse<String> post(String pathAndQuery, byte[] body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(pathAndQuery))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + task.port() + pathAndQuery);
  }

  static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(plain);
    }
    return out.toByteArray();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    task.stop();
    connect.interrupt();
    connect.join(5000);
  }
}
