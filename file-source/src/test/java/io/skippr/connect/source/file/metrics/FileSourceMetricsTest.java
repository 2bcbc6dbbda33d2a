package io.skippr.connect.source.file.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;

class FileSourceMetricsTest {

  /** A worker older than KIP-877: its context has no pluginMetrics() to call. */
  @Test
  void aWorkerWithoutPluginMetricsLeavesTheCountersUnpublished() {
    SourceTaskContext old =
        new SourceTaskContext() {
          @Override
          public Map<String, String> configs() {
            return Map.of();
          }

          @Override
          public OffsetStorageReader offsetStorageReader() {
            return null;
          }

          @Override
          public PluginMetrics pluginMetrics() {
            throw new AbstractMethodError("pluginMetrics");
          }
        };
    FileSourceMetrics metrics = FileSourceMetrics.of(old);
    metrics.read(100, 2);
    metrics.rejected();
    metrics.completed();
    metrics.gauge("files-open", "open", () -> 1);
    metrics.lag("id", "a.log", () -> 5);
    metrics.forgetLag("id");
    assertThat(metrics.completedCount()).isEqualTo(1);
  }
}
