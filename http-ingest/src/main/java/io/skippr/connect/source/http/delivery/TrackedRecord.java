package io.skippr.connect.source.http.delivery;

import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A source record that knows its request. Connect hands this same instance back to {@code
 * SourceTask.commitRecord}, which is how acknowledgements find their request.
 *
 * <p>Each instance is one row, equal only to itself: Connect's exactly-once task keeps the records
 * of a transaction in a map keyed by the record, and under {@link SourceRecord}'s value equality
 * two identical rows (of one request, or of two requests in one transaction) were one entry,
 * acknowledged once, so their request never settled.
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

  @Override
  public boolean equals(Object o) {
    return this == o;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }

  public WriteTicket ticket() {
    return ticket;
  }

  public boolean data() {
    return data;
  }
}
