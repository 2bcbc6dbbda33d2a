package io.skippr.connect.source.common;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Kafka's topic name rules, and the one mapping from measurement and stream names to topic names.
 *
 * <p>The mapping is injective: two different names never share a topic, and no two mapped names
 * collide under Kafka's rule that '.' and '_' are the same character in metric names (Kafka refuses
 * to create the second of two such topics). A <em>plain</em> name (ASCII letters, digits, '_' and
 * '-', not starting with '_') is its own topic name. Any other name becomes '_' followed by the
 * name with every byte of its UTF-8 form outside {@code [A-Za-z0-9-]} written as '_' and two
 * lowercase hex digits: {@code http.requests} → {@code _http_2erequests}, {@code cp\0u} → {@code
 * _cp_00u}, {@code é} → {@code __c3_a9}. Plain names never start with '_' (names starting with '_'
 * are refused) and mapped names contain no '.', so both properties hold.
 *
 * <p>{@link #EMPTY_OR_LEGAL} and {@link #UNSET_EMPTY_OR_LEGAL} are the validators of every source
 * key that names a topic.
 */
public final class TopicNames {

  /** Longest legal topic name. */
  public static final int MAX_LENGTH = 249;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** Empty, or characters a Kafka topic name may hold. */
  public static final ConfigDef.Validator EMPTY_OR_LEGAL =
      validator("empty or ASCII letters, digits, '.', '_', '-' (at most 249)");

  /** Unset (null: a default applies), empty, or characters a Kafka topic name may hold. */
  public static final ConfigDef.Validator UNSET_EMPTY_OR_LEGAL =
      validator("unset, empty or ASCII letters, digits, '.', '_', '-' (at most 249)");

  private TopicNames() {}

  private static ConfigDef.Validator validator(String description) {
    return ConfigDef.LambdaValidator.with(
        (name, value) -> {
          String text = value == null ? "" : value.toString();
          if (!text.isEmpty() && !isLegal(text)) {
            throw new ConfigException(
                name, value, "may hold only ASCII letters, digits, '.', '_' and '-' (at most 249)");
          }
        },
        () -> description);
  }

  public static boolean isLegal(String name) {
    if (name.isEmpty() || name.length() > MAX_LENGTH || name.equals(".") || name.equals("..")) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (!isLegal(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The topic name part for a measurement or stream name (see the class comment); the caller adds
   * the prefix and checks the length.
   *
   * @param name a non-empty name that does not start with '_'
   */
  public static String forName(String name) {
    if (isPlain(name)) {
      return name;
    }
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder(utf8.length + 16).append('_');
    for (byte b : utf8) {
      int c = b & 0xff;
      if (isPlainByte(c) && c != '_') {
        sb.append((char) c);
      } else {
        sb.append('_').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return sb.toString();
  }

  /**
   * The form under which Kafka compares topic names for collisions: '.' and '_' are one character
   * (they are in metric names).
   */
  public static String collisionForm(String topic) {
    return topic.replace('.', '_');
  }

  private static boolean isPlain(String name) {
    if (name.isEmpty() || name.charAt(0) == '_') {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 0x80 || !isPlainByte(c)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isPlainByte(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '-';
  }

  private static boolean isLegal(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '_'
        || c == '-';
  }
}
