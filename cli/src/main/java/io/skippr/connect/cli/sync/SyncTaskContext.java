package io.skippr.connect.cli.sync;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the lake writer asks of Connect, answered by a run without Kafka: there is no consumer to
 * seek (the run feeds records in order, from where each log ends) and none to pause (the writer
 * pauses only while replayed units hold its memory, and here a replay's records come from the same
 * source as everything else); a rejected record is reported to the run, which fails when any was.
 */
final class SyncTaskContext implements SinkTaskContext {
  private static final Logger LOG = LoggerFactory.getLogger(SyncTaskContext.class);

  private final Map<String, String> config;
  private final BiConsumer<SinkRecord, Throwable> rejected;
  private final AtomicLong rejections = new AtomicLong();

  SyncTaskContext(Map<String, String> config, BiConsumer<SinkRecord, Throwable> rejected) {
    this.config = Map.copyOf(config);
    this.rejected = rejected;
  }

  long rejections() {
    return rejections.get();
  }

  @Override
  public Map<String, String> configs() {
    return config;
  }

  @Override
  public void offset(Map<TopicPartition, Long> offsets) {
    offsets.forEach(this::offset);
  }

  @Override
  public void offset(TopicPartition tp, long offset) {
    // Records are fed from where each log ends; a seek has nothing to move.
    LOG.debug("Seek of {} to {} asked for; records are fed in order", tp, offset);
  }

  @Override
  public void timeout(long timeoutMs) {}

  @Override
  public Set<TopicPartition> assignment() {
    return Set.of();
  }

  @Override
  public void pause(TopicPartition... partitions) {
    LOG.info("Replayed units hold the lake writer's memory; the source goes on to complete them");
  }

  @Override
  public void resume(TopicPartition... partitions) {}

  @Override
  public void requestCommit() {}

  @Override
  public ErrantRecordReporter errantRecordReporter() {
    return new ErrantRecordReporter() {
      @Override
      public Future<Void> report(SinkRecord record, Throwable error) {
        rejections.incrementAndGet();
        rejected.accept(record, error);
        return CompletableFuture.completedFuture(null);
      }
    };
  }

  @Override
  public PluginMetrics pluginMetrics() {
    return null;
  }
}
