package io.skippr.connect.source.common.encoding;

import io.skippr.connect.json.StreamingJsonConverter;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;

/**
 * The value a record carries: the Struct or map itself ({@code record.encoding=connect}), or the
 * bytes Connect's JsonConverter makes of it ({@code record.encoding=json}), made where the source
 * reads rather than by the worker's converter. A value that holds its payload already ({@link
 * io.skippr.connect.json.EncodedJson}, written straight from the parsed input) is copied into its
 * envelope, not walked.
 */
public final class ValueEncoder {

  /** A record value and its schema. */
  public record Encoded(Schema schema, Object value) {}

  private final StreamingJsonConverter json;

  private ValueEncoder(StreamingJsonConverter json) {
    this.json = json;
  }

  public static ValueEncoder of(EncodingConfig.Values config) {
    if (config.encoding() == EncodingConfig.Encoding.CONNECT) {
      return none();
    }
    StreamingJsonConverter converter = new StreamingJsonConverter();
    converter.configure(
        Map.of(
            "schemas.enable", Boolean.toString(config.jsonSchemas()), "converter.type", "value"));
    return new ValueEncoder(converter);
  }

  /** Values passed on as they are. */
  public static ValueEncoder none() {
    return new ValueEncoder(null);
  }

  /** Whether values become bytes here, so the source may hand it payloads rather than Structs. */
  public boolean encodes() {
    return json != null;
  }

  /** The value for a record of {@code topic}; safe for concurrent use. */
  public Encoded encode(String topic, Schema schema, Object value) {
    if (json == null) {
      return new Encoded(schema, value);
    }
    return new Encoded(Schema.OPTIONAL_BYTES_SCHEMA, json.fromConnectData(topic, schema, value));
  }
}
