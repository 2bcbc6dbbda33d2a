package io.skippr.connect.source.poll.metrics;

import java.util.LinkedHashMap;
import java.util.function.DoubleSupplier;

/** Where the poll source's metrics are published; {@link #NONE} keeps them in memory only. */
public interface MetricsExport extends AutoCloseable {

  /** Publishes a metric whose current value {@code value} reads. */
  void add(
      String name, String description, LinkedHashMap<String, String> tags, DoubleSupplier value);

  /** Removes what this export added. */
  @Override
  void close();

  /** No export (workers older than Kafka 4.1, tests). */
  MetricsExport NONE =
      new MetricsExport() {
        @Override
        public void add(
            String name,
            String description,
            LinkedHashMap<String, String> tags,
            DoubleSupplier value) {}

        @Override
        public void close() {}
      };
}
