package io.skippr.connect.source.file.records;

import io.skippr.connect.source.common.Texts;
import io.skippr.connect.source.common.encoding.ValueEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Records for the rejections topic: which file, where in it (line number and byte offset), why, and
 * the input. They carry the file's offset too, so a rejected line is not read again.
 */
public final class FileRejections {

  /** The value schema of rejection records. */
  public static final Schema SCHEMA =
      SchemaBuilder.struct()
          .name("io.skippr.connect.source.file.Rejection")
          .field("read", Timestamp.SCHEMA)
          .field("file", Schema.STRING_SCHEMA)
          .field("file_id", Schema.STRING_SCHEMA)
          .field("line", Schema.INT64_SCHEMA)
          .field("byte_offset", Schema.INT64_SCHEMA)
          .field("format", Schema.STRING_SCHEMA)
          .field("reason", Schema.STRING_SCHEMA)
          .field("input", Schema.OPTIONAL_STRING_SCHEMA)
          .field("input_truncated", Schema.BOOLEAN_SCHEMA)
          .build();

  /** Input bytes kept per rejection. */
  public static final int MAX_INPUT_BYTES = 64 * 1024;

  private final String topic;
  private final String format;
  private final ValueEncoder encoder;

  /** Rejections whose values are left to the connector's value.converter. */
  public FileRejections(String topic, String format) {
    this(topic, format, ValueEncoder.none());
  }

  /**
   * @param encoder makes the record value (the Struct, or its JSON bytes)
   */
  public FileRejections(String topic, String format, ValueEncoder encoder) {
    this.topic = topic;
    this.format = format;
    this.encoder = encoder;
  }

  /** A rejection of the line at {@code line}/{@code byteOffset} of {@code file}. */
  public SourceRecord record(
      Map<String, Object> partition,
      Map<String, Object> offset,
      Where where,
      String reason,
      Input input,
      long readMillis) {
    String text =
        new String(
            input.bytes(),
            input.start(),
            Math.min(input.length(), MAX_INPUT_BYTES + 3),
            StandardCharsets.UTF_8);
    boolean truncated = input.truncated() || input.length() > MAX_INPUT_BYTES;
    if (input.length() > MAX_INPUT_BYTES) {
      text = Texts.cut(text, MAX_INPUT_BYTES);
    }
    Struct value =
        new Struct(SCHEMA)
            .put("read", new Date(readMillis))
            .put("file", where.file())
            .put("file_id", where.fileId())
            .put("line", where.line())
            .put("byte_offset", where.byteOffset())
            .put("format", format)
            .put("reason", reason)
            .put("input", text)
            .put("input_truncated", truncated);
    ValueEncoder.Encoded encoded = encoder.encode(topic, SCHEMA, value);
    return new SourceRecord(
        partition, offset, topic, null, null, null, encoded.schema(), encoded.value(), readMillis);
  }

  /** Where a rejected line is. */
  public record Where(String file, String fileId, long line, long byteOffset) {}

  /**
   * The rejected input.
   *
   * @param truncated true when {@code bytes} is already only the start of the line
   */
  public record Input(byte[] bytes, int start, int length, boolean truncated) {}
}
