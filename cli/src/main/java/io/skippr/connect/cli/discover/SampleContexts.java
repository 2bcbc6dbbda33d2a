package io.skippr.connect.cli.discover;

import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceConnectorContext;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Contexts for running a source in sample mode: no stored offsets (every source starts from its
 * beginning), nothing committed, reconfiguration requests ignored, errors kept for the sampler.
 */
final class SampleContexts implements AutoCloseable {
  private final Metrics metrics = new Metrics();
  private final PluginMetricsImpl pluginMetrics;
  private volatile Exception raised;

  SampleContexts(String pipeline) {
    pluginMetrics = new PluginMetricsImpl(metrics, Map.of("connector", pipeline));
  }

  /** Reports no offsets for any partition. */
  static final class NoOffsets implements OffsetStorageReader {
    @Override
    public <T> Map<String, Object> offset(Map<String, T> partition) {
      return null;
    }

    @Override
    public <T> Map<Map<String, T>, Map<String, Object>> offsets(
        Collection<Map<String, T>> partitions) {
      return Map.of();
    }
  }

  SourceConnectorContext connector() {
    return new SourceConnectorContext() {
      @Override
      public OffsetStorageReader offsetStorageReader() {
        return new NoOffsets();
      }

      @Override
      public void requestTaskReconfiguration() {}

      @Override
      public void raiseError(Exception e) {
        raised = e;
      }

      @Override
      public PluginMetrics pluginMetrics() {
        return pluginMetrics;
      }
    };
  }

  SourceTaskContext task(Map<String, String> config) {
    return new SourceTaskContext() {
      @Override
      public Map<String, String> configs() {
        return config;
      }

      @Override
      public OffsetStorageReader offsetStorageReader() {
        return new NoOffsets();
      }

      @Override
      public PluginMetrics pluginMetrics() {
        return pluginMetrics;
      }
    };
  }

  /** The error the connector raised through its context, if any. */
  Exception raised() {
    return raised;
  }

  @Override
  public void close() {
    try {
      pluginMetrics.close();
    } catch (java.io.IOException e) {
      // metrics of a finished sample run: nothing to keep
    }
    metrics.close();
  }
}
