package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.delivery.WriteTicket;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;

/** Records for the rejection topic: where the row was, why it was rejected, and its input. */
public final class RejectionRecords {

  /** The value schema of rejection records. */
  public static final Schema SCHEMA =
      SchemaBuilder.struct()
          .name("io.skippr.connect.source.http.Rejection")
          .field("received", Timestamp.SCHEMA)
          .field("endpoint", Schema.STRING_SCHEMA)
          .field("position_kind", Schema.STRING_SCHEMA)
          .field("position", Schema.INT64_SCHEMA)
          .field("reason", Schema.STRING_SCHEMA)
          .field("input", Schema.OPTIONAL_STRING_SCHEMA)
          .field("input_truncated", Schema.BOOLEAN_SCHEMA)
          .build();

  private final String topic;
  private final int maxInputBytes;
  private final ValueEncoder encoder;

  /**
   * @param maxInputBytes input kept per rejection (the row limit keeps records within the
   *     producer's request size)
   */
  public RejectionRecords(String topic, int maxInputBytes) {
    this(topic, maxInputBytes, ValueEncoder.none());
  }

  public RejectionRecords(String topic, int maxInputBytes, ValueEncoder encoder) {
    this.topic = topic;
    this.maxInputBytes = maxInputBytes;
    this.encoder = encoder;
  }

  /**
   * @param positionKind "line" (line protocol, 1-based) or "item" (JSON, 0-based)
   */
  public TrackedRecord record(
      WriteTicket ticket,
      long receivedMillis,
      String endpoint,
      String positionKind,
      long position,
      String reason,
      String input) {
    String kept = input;
    boolean truncated = false;
    if (input != null
        && input.length() > maxInputBytes / 4
        && input.getBytes(StandardCharsets.UTF_8).length > maxInputBytes) {
      kept = Texts.cut(input, maxInputBytes);
      truncated = true;
    }
    Struct value =
        new Struct(SCHEMA)
            .put("received", new Date(receivedMillis))
            .put("endpoint", endpoint)
            .put("position_kind", positionKind)
            .put("position", position)
            .put("reason", reason)
            .put("input", kept)
            .put("input_truncated", truncated);
    ValueEncoder.Encoded encoded = encoder.encode(topic, SCHEMA, value);
    return new TrackedRecord(
        ticket, false, topic, null, encoded.schema(), encoded.value(), receivedMillis, null);
  }
}
