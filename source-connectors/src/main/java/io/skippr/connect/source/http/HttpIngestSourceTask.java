package io.skippr.connect.source.http;

import io.skippr.connect.source.http.config.HttpIngestConfig;
import io.skippr.connect.source.http.delivery.Admission;
import io.skippr.connect.source.http.delivery.RecordHandoff;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.server.TokenAuth;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * Thin lifecycle around {@link IngestServer}: HTTP threads hand records over through a bounded
 * queue that {@link #poll()} drains, and {@link #commitRecord} counts Kafka's acknowledgements per
 * request. A null {@code RecordMetadata} (record filtered by an SMT — or, with {@code
 * errors.tolerance=all}, dropped after a failed send) also counts as done.
 */
public final class HttpIngestSourceTask extends SourceTask {

  /** Most records one poll returns. */
  static final int MAX_BATCH = 10_000;

  private static final long POLL_WAIT_MS = 100;

  private RecordHandoff handoff;
  private IngestServer server;

  @Override
  public String version() {
    return Version.get();
  }

  @Override
  public void start(Map<String, String> props) {
    HttpIngestConfig.Values config = HttpIngestConfig.from(props);
    Admission admission =
        new Admission(config.admission().maxInflightRows(), config.admission().maxInflightBytes());
    handoff =
        new RecordHandoff(
            (int) Math.min(Integer.MAX_VALUE - 8, config.admission().maxInflightRows()));
    IngestService service =
        new IngestService(config.limits(), config.admission(), config.topics(), admission, handoff);
    try {
      server =
          new IngestServer(
              config.server(),
              service,
              new TokenAuth(config.auth().token()),
              config.limits(),
              config.admission().retryAfterSeconds());
    } catch (IOException e) {
      throw new ConnectException(
          "Cannot listen on "
              + config.server().bindAddress()
              + ":"
              + config.server().port()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    return handoff.drain(MAX_BATCH, POLL_WAIT_MS);
  }

  @Override
  public void commitRecord(SourceRecord record, RecordMetadata metadata) {
    if (record instanceof TrackedRecord tracked) {
      tracked.ticket().acknowledged(tracked.data());
    }
  }

  @Override
  public void stop() {
    if (server != null) {
      server.close();
    }
    if (handoff != null) {
      handoff.close();
    }
  }

  /** The bound port, once started. */
  public int port() {
    return server.port();
  }
}
