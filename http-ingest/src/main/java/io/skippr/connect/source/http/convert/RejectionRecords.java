package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.common.Texts;
import io.skippr.connect.source.common.encoding.ValueEncoder;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.delivery.WriteTicket;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Records for the rejection topic: where the row was, why it was rejected, and its input. Every
 * such record fits the {@link RecordBound}: the reason and endpoint are cut to {@link
 * #MAX_REASON_BYTES} and {@link #MAX_ENDPOINT_BYTES}, the input to what the caller kept (see {@link
 * #keep}) and, if the record would still be too large, shorter.
 */
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

  /** Most bytes (UTF-8) of a reason kept, in a rejection record and in the answer. */
  public static final int MAX_REASON_BYTES = 2048;

  /** Most bytes (UTF-8) of the endpoint path kept (a JSON stream's name is in it). */
  public static final int MAX_ENDPOINT_BYTES = 1024;

  private final String topic;
  private final RecordBound bound;
  private final ValueEncoder encoder;

  public RejectionRecords(String topic, RecordBound bound, ValueEncoder encoder) {
    this.topic = topic;
    this.bound = bound;
    this.encoder = encoder;
  }

  /** A row's input as a rejection keeps it: at most {@code maxBytes} of UTF-8. */
  public record Kept(String text, boolean truncated) {}

  /** Cuts {@code input} to {@code maxBytes} of UTF-8 (without splitting a character). */
  public static Kept keep(String input, int maxBytes) {
    if (input == null
        || input.length() <= maxBytes / 3
        || input.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
      return new Kept(input, false);
    }
    return new Kept(Texts.cut(input, maxBytes), true);
  }

  /** A reason as rejections keep it: at most {@link #MAX_REASON_BYTES}. */
  public static String reason(String reason) {
    return reason.length() <= MAX_REASON_BYTES / 3 ? reason : Texts.cut(reason, MAX_REASON_BYTES);
  }

  /**
   * @param positionKind "line" (line protocol, 1-based) or "item" (JSON, 0-based)
   * @param input the row's input as {@link #keep} kept it
   */
  public TrackedRecord record(
      WriteTicket ticket,
      long receivedMillis,
      String endpoint,
      String positionKind,
      long position,
      String reason,
      Kept input) {
    Struct value =
        new Struct(SCHEMA)
            .put("received", new Date(receivedMillis))
            .put("endpoint", Texts.cut(endpoint, MAX_ENDPOINT_BYTES))
            .put("position_kind", positionKind)
            .put("position", position)
            .put("reason", reason(reason))
            .put("input", input.text())
            .put("input_truncated", input.truncated());
    TrackedRecord record = tracked(ticket, receivedMillis, value);
    String kept = input.text();
    while (kept != null && !kept.isEmpty() && bound.oversize(record).isPresent()) {
      kept = Texts.cut(kept, kept.length() / 2);
      value.put("input", kept).put("input_truncated", true);
      record = tracked(ticket, receivedMillis, value);
    }
    return record;
  }

  private TrackedRecord tracked(WriteTicket ticket, long receivedMillis, Struct value) {
    ValueEncoder.Encoded encoded = encoder.encode(topic, SCHEMA, value);
    return new TrackedRecord(
        ticket, false, topic, null, encoded.schema(), encoded.value(), receivedMillis, null);
  }
}
