package io.skippr.connect.source.file.format;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Headers;

/**
 * What one record of a file becomes: record parts, or the reason it is rejected (exactly one is
 * set). A null topic means the connector's {@code topic}.
 */
public record Parsed(
    String topic,
    String key,
    Schema valueSchema,
    Object value,
    Long timestamp,
    Headers headers,
    String rejection) {

  /** A schemaless value for the configured topic. */
  public static Parsed value(Object value) {
    return new Parsed(null, null, null, value, null, null, null);
  }

  public static Parsed rejected(String reason) {
    return new Parsed(null, null, null, null, null, null, reason);
  }

  public boolean accepted() {
    return rejection == null;
  }
}
