package io.skippr.connect.lake.convert;

import io.skippr.connect.lake.storage.PathEncoder;
import java.util.HashMap;
import java.util.Map;

/**
 * Renders {@code table.name.format} for a topic into a name that is safe as one path segment on
 * local disk and in S3 keys, with the partition values' encoding ({@link PathEncoder}): bytes other
 * than letters, digits, {@code .}, {@code _} and {@code -} are percent-encoded, a leading dot too
 * (so never {@code .}, {@code ..} or a hidden name), and a name over {@link #MAX_LENGTH} bytes
 * keeps a prefix plus a hash of the whole. Names are cached per topic: a task sees few topics.
 */
public final class TableNames {
  /** Longest table name; leaves room for the rest of an S3 key. */
  public static final int MAX_LENGTH = 200;

  private static final int MAX_CACHED = 10_000;

  private final String format;
  private final Map<String, String> byTopic = new HashMap<>();

  public TableNames(String format) {
    this.format = format;
  }

  /** The table for a (post-transform) topic. */
  public String tableFor(String topic) {
    String cached = byTopic.get(topic);
    if (cached != null) {
      return cached;
    }
    String name = encode(format.replace(FormatConfig.TOPIC_PLACEHOLDER, topic));
    if (byTopic.size() < MAX_CACHED) {
      byTopic.put(topic, name);
    }
    return name;
  }

  /** The path-safe form of a rendered table name. */
  public static String encode(String raw) {
    return PathEncoder.encode(raw, MAX_LENGTH);
  }
}
