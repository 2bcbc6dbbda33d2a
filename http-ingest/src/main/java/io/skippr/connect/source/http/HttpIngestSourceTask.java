package io.skippr.connect.source.http;

import io.skippr.connect.common.ProjectVersion;
import io.skippr.connect.source.common.metrics.MetricOwners;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * Thin lifecycle around {@link IngestEndpoint}: request threads hand whole requests over through a
 * bounded queue that {@link #poll()} drains, {@link #commitRecord} counts Kafka's acknowledgements
 * per request and {@link #commit()} reports committed transactions. A null {@code RecordMetadata}
 * (record filtered by an SMT — or, with {@code errors.tolerance=all}, dropped after a failed send)
 * also counts as done.
 */
public final class HttpIngestSourceTask extends SourceTask {

  /** Orders this worker's instances of the task: the newest publishes the metrics. */
  private final long instance = MetricOwners.nextInstance();

  private IngestEndpoint endpoint;

  @Override
  public String version() {
    return ProjectVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    endpoint = HttpIngestEndpoint.start(props, context, instance);
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    return endpoint.poll();
  }

  @Override
  public void commitRecord(SourceRecord record, RecordMetadata metadata) {
    endpoint.acknowledged(record);
  }

  @Override
  public void commit() {
    if (endpoint != null) {
      endpoint.committed();
    }
  }

  /** Answers or refuses (503) every request in flight, then stops listening. */
  @Override
  public void stop() {
    if (endpoint != null) {
      endpoint.close();
    }
  }

  /** The bound port, once started. */
  public int port() {
    return endpoint.port();
  }
}
