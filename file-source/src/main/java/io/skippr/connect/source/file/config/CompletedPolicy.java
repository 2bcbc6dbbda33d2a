package io.skippr.connect.source.file.config;

import java.util.Locale;

/** What happens to a file once Kafka committed the offset of its last record. */
public enum CompletedPolicy {
  KEEP,
  DELETE,
  MOVE;

  static CompletedPolicy parse(String text) {
    return valueOf(text.trim().toUpperCase(Locale.ROOT));
  }
}
