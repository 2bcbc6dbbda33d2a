package io.skippr.connect.sink.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkTaskContext;

/** The worker's side of a sink task without Kafka: keeps seeks, counts pauses, no reporter. */
final class BenchContext implements SinkTaskContext {
  final Map<TopicPartition, Long> seeks = new HashMap<>();
  int pauses;

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
    return seeks.keySet();
  }

  @Override
  public void pause(TopicPartition... partitions) {
    pauses++;
  }

  @Override
  public void resume(TopicPartition... partitions) {}

  @Override
  public void requestCommit() {}

  @Override
  public ErrantRecordReporter errantRecordReporter() {
    return null;
  }

  @Override
  public PluginMetrics pluginMetrics() {
    return null;
  }
}
