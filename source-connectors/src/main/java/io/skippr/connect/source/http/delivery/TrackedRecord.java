package io.skippr.connect.source.http.delivery;

import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A source record that knows its request. Connect hands this same instance back to {@code
 * SourceTask.commitRecord}, which is how acknowledgements find their request.
 */
public final class TrackedRecord extends SourceRecord {

  private final WriteTicket ticket;
  private final boolean data;

  /**
   * @param data true for an accepted row, false for a rejection record
   * @param key the string key (series key), or null
   */
  public TrackedRecord(
      WriteTicket ticket,
      boolean data,
      String topic,
      String key,
      Schema valueSchema,
      Object value,
      Long timestamp,
      Iterable<Header> headers) {
    super(
        (Map<String, ?>) null,
        (Map<String, ?>) null,
        topic,
        null,
        key == null ? null : Schema.STRING_SCHEMA,
        key,
        valueSchema,
        value,
        timestamp,
        headers);
    this.ticket = ticket;
    this.data = data;
  }

  public WriteTicket ticket() {
    return ticket;
  }

  public boolean data() {
    return data;
  }
}
