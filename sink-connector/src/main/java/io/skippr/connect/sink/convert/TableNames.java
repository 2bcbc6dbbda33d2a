package io.skippr.connect.sink.convert;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * Renders {@code table.name.format} for a topic into a name that is safe as one path segment on
 * local disk and in S3 keys. Names are cached per topic: a task sees few topics.
 */
public final class TableNames {
  /** Longest table name after encoding; leaves room under the usual 255-byte segment limit. */
  public static final int MAX_LENGTH = 200;

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  private static final int MAX_CACHED = 10_000;

  private final String format;
  private final Map<String, String> byTopic = new HashMap<>();

  public TableNames(String format) {
    this.format = format;
  }

  /**
   * The table for a (post-transform) topic.
   *
   * @throws RecordRejectedException when the encoded name is empty or longer than {@link
   *     #MAX_LENGTH}
   */
  public String tableFor(String topic) {
    String cached = byTopic.get(topic);
    if (cached != null) {
      return cached;
    }
    String name = encode(format.replace(FormatConfig.TOPIC_PLACEHOLDER, topic));
    if (name.isEmpty() || name.length() > MAX_LENGTH) {
      throw new RecordRejectedException(
          "table name for topic '"
              + topic
              + "' is "
              + (name.isEmpty() ? "empty" : name.length() + " characters long, over " + MAX_LENGTH)
              + " (table.name.format="
              + format
              + ")");
    }
    if (byTopic.size() < MAX_CACHED) {
      byTopic.put(topic, name);
    }
    return name;
  }

  /**
   * Percent-encodes every byte of the UTF-8 form except letters, digits, {@code .}, {@code _} and
   * {@code -}; a name made only of dots is encoded whole, so neither {@code .} nor {@code ..} can
   * appear as a segment.
   */
  public static String encode(String raw) {
    byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
    boolean onlyDots = bytes.length > 0;
    for (byte b : bytes) {
      onlyDots &= b == '.';
    }
    StringBuilder out = new StringBuilder(bytes.length + 8);
    for (byte b : bytes) {
      if (!onlyDots && isSafe(b)) {
        out.append((char) b);
      } else {
        out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
      }
    }
    return out.toString();
  }

  static void checkRendered(String key, String name) {
    String encoded = encode(name);
    if (encoded.length() > MAX_LENGTH) {
      throw new ConfigException(
          key, name, "the table name is over " + MAX_LENGTH + " characters once encoded");
    }
  }

  private static boolean isSafe(byte b) {
    return (b >= 'a' && b <= 'z')
        || (b >= 'A' && b <= 'Z')
        || (b >= '0' && b <= '9')
        || b == '.'
        || b == '_'
        || b == '-';
  }
}
