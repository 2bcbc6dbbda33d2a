package io.skippr.connect.lake.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

/** A sink task context that records seeks, pauses and reported records (benches use it too). */
public final class RecordingContext implements SinkTaskContext {
  final Map<TopicPartition, Long> seeks = new HashMap<>();
  final Set<TopicPartition> paused = new LinkedHashSet<>();
  public final List<Set<TopicPartition>> pauseCalls = new ArrayList<>();
  final List<Set<TopicPartition>> resumeCalls = new ArrayList<>();
  final List<SinkRecord> reported = new ArrayList<>();
  final List<Throwable> reasons = new ArrayList<>();
  private final boolean withReporter;

  public RecordingContext(boolean withReporter) {
    this.withReporter = withReporter;
  }

  @Override
  public Map<String, String> configs() {
    return Map.of();
  }

  @Override
  public void offset(Map<TopicPartition, Long> offsets) {
    seeks.putAll(offsets);
  }

  @Override
  public void offset(TopicPartition tp, long offset) {
    seeks.put(tp, offset);
  }

  @Override
  public void timeout(long timeoutMs) {}

  @Override
  public Set<TopicPartition> assignment() {
    return Set.of();
  }

  @Override
  public void pause(TopicPartition... partitions) {
    pauseCalls.add(Set.of(partitions));
    paused.addAll(List.of(partitions));
  }

  @Override
  public void resume(TopicPartition... partitions) {
    resumeCalls.add(Set.of(partitions));
    List.of(partitions).forEach(paused::remove);
  }

  @Override
  public void requestCommit() {}

  @Override
  public ErrantRecordReporter errantRecordReporter() {
    if (!withReporter) {
      return null;
    }
    return new ErrantRecordReporter() {
      @Override
      public Future<Void> report(SinkRecord record, Throwable error) {
        reported.add(record);
        reasons.add(error);
        return CompletableFuture.completedFuture(null);
      }
    };
  }

  @Override
  public PluginMetrics pluginMetrics() {
    return null;
  }
}
