package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.http.config.EncodingConfig;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * The value a record carries: the Struct or map itself ({@code record.encoding=connect}), or the
 * bytes Connect's JsonConverter makes of it ({@code record.encoding=json}), made here on a request
 * thread rather than on the task's one thread.
 */
public final class ValueEncoder {

  /** A record value and its schema. */
  public record Encoded(Schema schema, Object value) {}

  private final JsonConverter json;

  private ValueEncoder(JsonConverter json) {
    this.json = json;
  }

  public static ValueEncoder of(EncodingConfig.Values config) {
    if (config.encoding() == EncodingConfig.Encoding.CONNECT) {
      return new ValueEncoder(null);
    }
    JsonConverter converter = new JsonConverter();
    converter.configure(
        Map.of(
            "schemas.enable", Boolean.toString(config.jsonSchemas()), "converter.type", "value"));
    return new ValueEncoder(converter);
  }

  /** Values passed on as they are. */
  public static ValueEncoder none() {
    return new ValueEncoder(null);
  }

  /** The value for a record of {@code topic}; JsonConverter is thread-safe for this use. */
  public Encoded encode(String topic, Schema schema, Object value) {
    if (json == null) {
      return new Encoded(schema, value);
    }
    return new Encoded(Schema.OPTIONAL_BYTES_SCHEMA, json.fromConnectData(topic, schema, value));
  }
}
