package io.skippr.connect.source.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Runs a real task (HTTP server on a free port) and plays Connect's part: a thread polls the task
 * and acknowledges each record via commitRecord — or holds back, to simulate a slow or absent
 * Kafka. In {@link Mode#TRANSACTIONAL} it plays an exactly-once worker with connector-defined
 * boundaries: after a poll whose batch the task asked to commit, it acknowledges the batch's
 * records and then calls {@code commit()}, as Connect does after a transaction commit — unless
 * commits are held.
 */
final class TaskHarness implements AutoCloseable {

  enum Acks {
    ALL,
    NONE,
    NULL_METADATA
  }

  enum Mode {
    PLAIN,
    TRANSACTIONAL
  }

  /** The producer's default max.request.size: a larger record fails its transaction. */
  static final int MAX_REQUEST_SIZE = 1_048_576;

  final HttpIngestSourceTask task = new HttpIngestSourceTask();
  private final JsonConverter converter = new JsonConverter();
  private final List<String> unsendable = new ArrayList<>();
  private final List<SourceRecord> sent = new ArrayList<>();
  private final List<List<SourceRecord>> batches = new ArrayList<>();
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Mode mode;
  private final AtomicInteger commitRequests = new AtomicInteger();
  private final AtomicInteger commits = new AtomicInteger();
  private volatile Acks acks = Acks.ALL;
  private volatile boolean polling = true;
  private volatile boolean paused;
  private volatile boolean holdCommits;
  private volatile boolean running = true;
  private volatile RuntimeException failure;

  /**
   * Records of the open transaction, keyed by the record as Connect's ExactlyOnceWorkerSourceTask
   * keys them (a LinkedHashMap, so by equals/hashCode): acknowledged once per key at the commit.
   */
  private final Map<SourceRecord, Long> uncommitted = new LinkedHashMap<>();

  private final Thread connect;

  TaskHarness(Map<String, String> overrides) {
    this(overrides, Mode.PLAIN);
  }

  TaskHarness(Map<String, String> overrides, Mode mode) {
    this.mode = mode;
    Map<String, String> props = new HashMap<>();
    props.put("server.port", "0");
    props.put("topic.prefix", "lp.");
    props.put("catalog.store", "memory");
    props.putAll(overrides);
    converter.configure(Map.of("schemas.enable", "true"), false);
    task.initialize(new Context(props));
    task.start(props);
    connect = new Thread(this::playConnect, "fake-connect");
    connect.start();
  }

  void acks(Acks mode) {
    this.acks = mode;
  }

  /** Holds back transaction commits (TRANSACTIONAL mode) until switched off again. */
  void holdCommits(boolean hold) {
    this.holdCommits = hold;
  }

  /** What poll() threw (the task FAILED, as Connect would report it), or null. */
  RuntimeException failure() {
    return failure;
  }

  /** Transactions committed so far (commit() calls after a batch). */
  int commits() {
    return commits.get();
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
        if (mode == Mode.TRANSACTIONAL && !holdCommits && commitRequests.get() > 0) {
          commitTransaction(offset);
          offset += 1_000_000;
        }
        List<SourceRecord> batch;
        try {
          batch = task.poll();
        } catch (RuntimeException e) {
          failure = e; // Connect marks the task FAILED and stops polling it
          return;
        }
        if (batch == null) {
          continue;
        }
        synchronized (sent) {
          batches.add(List.copyOf(batch));
        }
        for (SourceRecord r : batch) {
          synchronized (sent) {
            sent.add(r);
          }
          checkSendable(r);
          if (mode == Mode.TRANSACTIONAL) {
            uncommitted.put(r, null); // acknowledged when its transaction commits, as Connect 4.x
          } else {
            acknowledge(r, offset++);
          }
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Records what the producer would refuse: larger than its default max.request.size, written by
   * JsonConverter with schemas (the value converter of the ITs' workers) or as bytes.
   */
  private void checkSendable(SourceRecord r) {
    long size;
    try {
      size =
          r.value() instanceof byte[] b
              ? b.length
              : converter.fromConnectData(r.topic(), r.valueSchema(), r.value()).length;
    } catch (RuntimeException e) {
      synchronized (unsendable) {
        unsendable.add(r.topic() + ": the converter failed: " + e);
      }
      return;
    }
    size += r.key() == null ? 0 : r.key().toString().getBytes(StandardCharsets.UTF_8).length;
    for (org.apache.kafka.connect.header.Header h : r.headers()) {
      size += h.key().length() + String.valueOf(h.value()).getBytes(StandardCharsets.UTF_8).length;
    }
    if (size > MAX_REQUEST_SIZE) {
      synchronized (unsendable) {
        unsendable.add(r.topic() + ": " + size + " bytes");
      }
    }
  }

  private void commitTransaction(long offset) throws InterruptedException {
    commitRequests.set(0);
    long o = offset;
    for (SourceRecord r : uncommitted.keySet()) {
      acknowledge(r, o++);
    }
    uncommitted.clear();
    commits.incrementAndGet();
    task.commit();
  }

  private void acknowledge(SourceRecord r, long offset) throws InterruptedException {
    switch (acks) {
      case ALL -> task.commitRecord(r, metadata(r, offset));
      case NULL_METADATA -> task.commitRecord(r, null);
      default -> {}
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

  /** The batches poll() returned so far. */
  List<List<SourceRecord>> batches() {
    synchronized (sent) {
      return new ArrayList<>(batches);
    }
  }

  /** The records Connect took after the first {@code from}, in order. */
  List<SourceRecord> sentSince(int from) {
    synchronized (sent) {
      return new ArrayList<>(sent.subList(Math.min(from, sent.size()), sent.size()));
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

  int port() {
    return task.port();
  }

  /** Stops polling, then the task (as Connect does: the task thread exits, then stop()). */
  @Override
  public void close() throws InterruptedException {
    running = false;
    connect.interrupt();
    connect.join(5000);
    task.stop();
    synchronized (unsendable) {
      if (!unsendable.isEmpty()) {
        throw new AssertionError("records the producer would refuse: " + unsendable);
      }
    }
  }

  /** The task's context; with a transaction context in TRANSACTIONAL mode. */
  private final class Context implements SourceTaskContext {
    private final Map<String, String> configs;

    Context(Map<String, String> configs) {
      this.configs = configs;
    }

    @Override
    public Map<String, String> configs() {
      return configs;
    }

    @Override
    public OffsetStorageReader offsetStorageReader() {
      return null;
    }

    @Override
    public TransactionContext transactionContext() {
      if (mode != Mode.TRANSACTIONAL) {
        return null;
      }
      return new TransactionContext() {
        @Override
        public void commitTransaction() {
          commitRequests.incrementAndGet();
        }

        @Override
        public void commitTransaction(SourceRecord record) {
          commitRequests.incrementAndGet();
        }

        @Override
        public void abortTransaction() {
          throw new UnsupportedOperationException("the task never aborts");
        }

        @Override
        public void abortTransaction(SourceRecord record) {
          throw new UnsupportedOperationException("the task never aborts");
        }
      };
    }

    /** As on a worker that predates KIP-877: the task must fall back to JMX. */
    @Override
    public PluginMetrics pluginMetrics() {
      throw new UnsupportedOperationException("no plugin metrics on this worker");
    }
  }
}
