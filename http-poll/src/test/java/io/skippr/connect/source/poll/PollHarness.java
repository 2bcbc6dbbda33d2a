package io.skippr.connect.source.poll;

import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Runs the real task and plays the worker's part the way exactly-once source support does: a polled
 * page is one transaction; committing it makes its records visible (to a read_committed consumer:
 * {@link #landed}) and stores their offsets; an aborted page leaves neither. Offsets live in a map
 * standing in for the offsets topic, the state store in a real RocksDB under {@code dir}.
 */
final class PollHarness implements AutoCloseable {

  /** A random SKIPPR_STATE_KEY for one test. */
  static String newStateKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  final Path dir;
  final Map<String, String> env;
  final Map<String, String> props;
  final Map<Map<String, Object>, Map<String, Object>> kafkaOffsets = new ConcurrentHashMap<>();
  final List<SourceRecord> landed = new ArrayList<>();
  final List<SourceRecord> transactionCommits = new ArrayList<>();
  final Metrics metrics = new Metrics();
  volatile boolean connectorBoundary;
  volatile boolean pluginMetricsMissing;
  HttpPollSourceTask task;
  private PluginMetricsImpl pluginMetrics;
  private long kafkaOffset;

  PollHarness(Path dir, Map<String, String> env, Map<String, String> props) {
    this.dir = dir;
    this.env = Map.copyOf(env);
    Map<String, String> withName = new HashMap<>(props);
    withName.putIfAbsent("name", "poll-test");
    this.props = withName;
  }

  StoreEnvironment environment() {
    return StoreEnvironment.of(env, dir);
  }

  /** Opens the task's state store (the same RocksDB handle while the task has it open). */
  StateStore openStore() {
    return StateStores.open(props, environment());
  }

  PollHarness start() {
    task = new HttpPollSourceTask(p -> StateStores.open(p, environment()), environment());
    pluginMetrics = new PluginMetricsImpl(metrics, Map.of("connector", props.get("name")));
    task.initialize(context());
    task.start(props);
    return this;
  }

  /** Polls until a non-empty page arrives and commits it as one transaction. */
  List<SourceRecord> page(Duration timeout) throws InterruptedException {
    List<SourceRecord> page = nextPage(timeout);
    commit(page, page.size());
    return page;
  }

  /** Polls a page and loses it, as a worker killed before the transaction committed. */
  List<SourceRecord> pageAborted(Duration timeout) throws InterruptedException {
    return nextPage(timeout);
  }

  /** Polls and commits pages until the condition holds. */
  void runUntil(Duration timeout, String what, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      List<SourceRecord> batch = task.poll();
      if (batch != null && !batch.isEmpty()) {
        commit(batch, batch.size());
      }
    }
  }

  /** Commits the first {@code count} records of a batch (an at-least-once offset flush). */
  void commit(List<SourceRecord> batch, int count) {
    for (SourceRecord r : batch.subList(0, count)) {
      synchronized (landed) {
        landed.add(r);
      }
      kafkaOffsets.put(new HashMap<>(r.sourcePartition()), new HashMap<>(r.sourceOffset()));
      task.commitRecord(
          r, new RecordMetadata(new TopicPartition(r.topic(), 0), kafkaOffset++, 0, 0, 0, 0));
    }
    task.commit();
  }

  private List<SourceRecord> nextPage(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      List<SourceRecord> batch = task.poll();
      if (batch != null && !batch.isEmpty()) {
        return batch;
      }
    }
    throw new AssertionError("no page within " + timeout);
  }

  /** Stops the task as the worker does (the final commit still reaches it). */
  void stop() {
    task.stop();
    task.commit();
    closeMetrics();
  }

  /** A new task instance with the offsets Kafka holds. */
  PollHarness restart() {
    stop();
    return start();
  }

  /** Ids of the landed records of a topic, in order. */
  List<Long> landedIds(String topic) {
    List<Long> ids = new ArrayList<>();
    synchronized (landed) {
      for (SourceRecord r : landed) {
        if (r.topic().equals(topic)) {
          ids.add(((Number) ((Map<?, ?>) r.value()).get("id")).longValue());
        }
      }
    }
    return ids;
  }

  List<SourceRecord> landed(String topic) {
    synchronized (landed) {
      return landed.stream().filter(r -> r.topic().equals(topic)).toList();
    }
  }

  /** A plugin metric's value by name and tags, or null when it is not registered. */
  Object metric(String name, Map<String, String> tags) {
    Map<String, String> all = new HashMap<>(tags);
    all.put("connector", props.get("name"));
    return metrics.metrics().entrySet().stream()
        .filter(e -> e.getKey().name().equals(name) && e.getKey().tags().equals(all))
        .map(e -> e.getValue().metricValue())
        .findFirst()
        .orElse(null);
  }

  private SourceTaskContext context() {
    return new SourceTaskContext() {
      @Override
      public Map<String, String> configs() {
        return props;
      }

      @Override
      public OffsetStorageReader offsetStorageReader() {
        return new MapOffsets();
      }

      @Override
      public TransactionContext transactionContext() {
        return connectorBoundary ? new RecordingTransactions() : null;
      }

      @Override
      public PluginMetrics pluginMetrics() {
        if (pluginMetricsMissing) {
          throw new AbstractMethodError("pluginMetrics() (a Kafka 3.9 worker)");
        }
        return pluginMetrics;
      }
    };
  }

  private final class MapOffsets implements OffsetStorageReader {
    @Override
    public <T> Map<String, Object> offset(Map<String, T> partition) {
      return kafkaOffsets.get(new HashMap<String, Object>(partition));
    }

    @Override
    public <T> Map<Map<String, T>, Map<String, Object>> offsets(
        Collection<Map<String, T>> partitions) {
      Map<Map<String, T>, Map<String, Object>> out = new HashMap<>();
      for (Map<String, T> p : partitions) {
        out.put(p, offset(p));
      }
      return out;
    }
  }

  private final class RecordingTransactions implements TransactionContext {
    @Override
    public void commitTransaction() {
      throw new AssertionError("the task commits per record, not without one");
    }

    @Override
    public void commitTransaction(SourceRecord record) {
      transactionCommits.add(record);
    }

    @Override
    public void abortTransaction() {
      throw new AssertionError("the task never aborts");
    }

    @Override
    public void abortTransaction(SourceRecord record) {
      throw new AssertionError("the task never aborts");
    }
  }

  private void closeMetrics() {
    try {
      pluginMetrics.close();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (task != null) {
      task.stop();
    }
    metrics.close();
  }
}
