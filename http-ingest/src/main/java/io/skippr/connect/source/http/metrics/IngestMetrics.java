package io.skippr.connect.source.http.metrics;

/** What the ingest endpoint counts; see {@link TaskMetrics} for the published names. */
public interface IngestMetrics extends AutoCloseable {

  /**
   * A request was answered.
   *
   * @param write whether it was a write (its latency counts when it got 204)
   * @param receivedNanos when it arrived ({@link System#nanoTime()})
   */
  void answered(int status, boolean write, long receivedNanos);

  /** Rows of answered writes: accepted (durable in Kafka) and rejected. */
  void rows(long accepted, long rejected);

  /** Body bytes received, as sent (compressed when gzip). */
  void bytesIn(long bytes);

  @Override
  void close();

  /** Counts nothing. */
  IngestMetrics NONE =
      new IngestMetrics() {
        @Override
        public void answered(int status, boolean write, long receivedNanos) {}

        @Override
        public void rows(long accepted, long rejected) {}

        @Override
        public void bytesIn(long bytes) {}

        @Override
        public void close() {}
      };
}
