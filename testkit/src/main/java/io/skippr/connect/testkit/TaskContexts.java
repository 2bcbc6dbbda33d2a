package io.skippr.connect.testkit;

import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/** Source task contexts for tests that run a task's parts without a worker. */
public final class TaskContexts {

  private TaskContexts() {}

  /**
   * A context without settings or offsets whose plugin metrics are {@code metrics}, e.g. a {@code
   * PluginMetricsImpl} of a registry that several tasks of a test share, as a worker's tasks do.
   */
  public static SourceTaskContext withPluginMetrics(PluginMetrics metrics) {
    return withPluginMetrics(() -> metrics);
  }

  /**
   * As {@link #withPluginMetrics(PluginMetrics)}, asking {@code metrics} on each call; one that
   * throws {@link AbstractMethodError} plays a worker older than KIP-877.
   */
  public static SourceTaskContext withPluginMetrics(Supplier<PluginMetrics> metrics) {
    return new SourceTaskContext() {
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
        return metrics.get();
      }
    };
  }
}
