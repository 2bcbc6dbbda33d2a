package io.skippr.connect.source.http;

import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;

/** What the task delegates to: the running endpoint of one task. */
interface IngestEndpoint extends AutoCloseable {

  /** Whole requests' records, or null when none arrived within a short wait. */
  List<SourceRecord> poll() throws InterruptedException;

  /** Kafka acknowledged the record (or an SMT filtered it). */
  void acknowledged(SourceRecord record);

  /** Connect committed offsets, or the transaction holding every record polled so far. */
  void committed();

  /** The bound port. */
  int port();

  /** Answers every request in flight and stops listening. */
  @Override
  void close();
}
