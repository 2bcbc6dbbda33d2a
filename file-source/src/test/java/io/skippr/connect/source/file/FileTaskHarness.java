package io.skippr.connect.source.file;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Runs a real {@link FileSourceTask} on real files and plays Connect's part: polls, "commits" the
 * offsets of the records polled so far (as Kafka would after a flush or a transaction) and calls
 * {@code commit()}; a crash drops what was polled but not committed, like an aborted transaction.
 */
final class FileTaskHarness implements AutoCloseable {

  /** The offsets Kafka has committed, by partition. */
  final Map<Map<String, Object>, Map<String, Object>> kafka = new HashMap<>();

  /** Every record that Kafka committed, in order. */
  final List<SourceRecord> committed = new ArrayList<>();

  private final List<SourceRecord> pending = new ArrayList<>();
  private final Map<String, String> props;
  private final Metrics metrics = new Metrics();
  private PluginMetricsImpl pluginMetrics;
  private FileSourceTask task;
  int transactionsCommitted;
  boolean transactional;

  FileTaskHarness(Map<String, String> props) {
    this.props = new HashMap<>(props);
    this.props.putIfAbsent("name", "files-test");
    this.props.putIfAbsent("state.mirror", "off");
    this.props.putIfAbsent("poll.interval.ms", "10");
    this.props.putIfAbsent("file.min.age.ms", "0");
  }

  FileTaskHarness start() {
    pluginMetrics = new PluginMetricsImpl(metrics, Map.of("connector", props.get("name")));
    task = new FileSourceTask();
    task.initialize(context());
    task.start(props);
    return this;
  }

  /** One poll; its records are pending until {@link #commit()}. */
  List<SourceRecord> poll() throws InterruptedException {
    List<SourceRecord> batch = task.poll();
    if (batch == null) {
      return List.of();
    }
    pending.addAll(batch);
    return batch;
  }

  /** Polls until {@code done} holds for the records polled since, or fails after the timeout. */
  List<SourceRecord> pollUntil(Predicate<List<SourceRecord>> done, Duration timeout)
      throws InterruptedException {
    List<SourceRecord> got = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!done.test(got)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + "; polled " + got.size());
      }
      got.addAll(poll());
    }
    return got;
  }

  List<SourceRecord> pollCount(int count) throws InterruptedException {
    return pollUntil(r -> r.size() >= count, Duration.ofSeconds(20));
  }

  /** Polls until a few polls in a row bring nothing. */
  List<SourceRecord> drain() throws InterruptedException {
    List<SourceRecord> got = new ArrayList<>();
    int empty = 0;
    while (empty < 5) {
      List<SourceRecord> batch = poll();
      got.addAll(batch);
      empty = batch.isEmpty() ? empty + 1 : 0;
    }
    return got;
  }

  /** The records committed and those polled since: what Kafka would hold after a commit. */
  List<SourceRecord> committedAndPending() {
    List<SourceRecord> all = new ArrayList<>(committed);
    all.addAll(pending);
    return all;
  }

  /** Kafka commits every record polled so far; then Connect calls {@code commit()}. */
  void commit() {
    for (SourceRecord r : pending) {
      kafka.put(new HashMap<>(r.sourcePartition()), new HashMap<>(r.sourceOffset()));
    }
    committed.addAll(pending);
    pending.clear();
    task.commit();
  }

  /** A worker killed: uncommitted records are gone, and a new task starts from Kafka's offsets. */
  void crash() {
    pending.clear();
    stopTask();
    start();
  }

  /** Stops the task as Connect does, closing its plugin metrics. */
  private void stopTask() {
    task.stop();
    try {
      pluginMetrics.close();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Connect gave up waiting for the running instance to stop and starts the next one, which reads
   * from Kafka's committed offsets; the old instance keeps its plugin metrics until the returned
   * stop runs.
   */
  Runnable startNextBeforeTheOldStops() {
    FileSourceTask old = task;
    PluginMetricsImpl oldMetrics = pluginMetrics;
    pending.clear();
    start();
    return () -> {
      old.stop();
      try {
        oldMetrics.close();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
  }

  /** An orderly restart: commit, stop, start. */
  void restart() {
    commit();
    stopTask();
    start();
  }

  /** Polls until {@code condition} holds (e.g. a completed file is gone). */
  List<SourceRecord> pollUntil(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    return pollUntil(r -> condition.getAsBoolean(), Duration.ofSeconds(20));
  }

  /** A plugin metric's current value. */
  double metric(String name) {
    for (Map.Entry<MetricName, KafkaMetric> e : metrics.metrics().entrySet()) {
      if (e.getKey().name().equals(name)) {
        return ((Number) e.getValue().metricValue()).doubleValue();
      }
    }
    throw new AssertionError("no metric " + name + " in " + metrics.metrics().keySet());
  }

  /** The value of {@code file-lag-bytes} for the file with this path tag, or null. */
  Double fileLag(String path) {
    for (Map.Entry<MetricName, KafkaMetric> e : metrics.metrics().entrySet()) {
      if (e.getKey().name().equals("file-lag-bytes")
          && path.equals(e.getKey().tags().get("file"))) {
        return ((Number) e.getValue().metricValue()).doubleValue();
      }
    }
    return null;
  }

  @Override
  public void close() {
    if (task != null) {
      stopTask();
    }
    metrics.close();
  }

  private SourceTaskContext context() {
    return new SourceTaskContext() {
      @Override
      public Map<String, String> configs() {
        return props;
      }

      @Override
      public OffsetStorageReader offsetStorageReader() {
        return new OffsetStorageReader() {
          @Override
          public <T> Map<String, Object> offset(Map<String, T> partition) {
            return kafka.get(partition);
          }

          @Override
          public <T> Map<Map<String, T>, Map<String, Object>> offsets(
              Collection<Map<String, T>> partitions) {
            Map<Map<String, T>, Map<String, Object>> out = new LinkedHashMap<>();
            for (Map<String, T> p : partitions) {
              out.put(p, kafka.get(p));
            }
            return out;
          }
        };
      }

      @Override
      public TransactionContext transactionContext() {
        return transactional ? transactions() : null;
      }

      @Override
      public PluginMetrics pluginMetrics() {
        return pluginMetrics;
      }
    };
  }

  private TransactionContext transactions() {
    return new TransactionContext() {
      @Override
      public void commitTransaction() {
        transactionsCommitted++;
      }

      @Override
      public void commitTransaction(SourceRecord record) {
        transactionsCommitted++;
      }

      @Override
      public void abortTransaction() {}

      @Override
      public void abortTransaction(SourceRecord record) {}
    };
  }
}
