package io.skippr.connect.transforms;

import io.skippr.connect.common.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Names a record's namespace from field values and turns it into a topic name: {@code
 * {topic}{separator}{value}[{separator}{value}...]}, with every character outside {@code
 * [a-zA-Z0-9._-]} replaced by {@code _} and names over 249 characters (Kafka's limit) cut and given
 * a hash suffix, so distinct long names stay distinct.
 */
public final class NamespaceNames {
  /** Kafka's longest topic name. */
  public static final int MAX_TOPIC_LENGTH = 249;

  private static final int HASH_CHARS = 8;

  private final List<FieldPath> fields;
  private final String separator;
  private final NamespaceConfig.Fallback fallback;
  private final String defaultNamespace;

  NamespaceNames(
      List<FieldPath> fields,
      String separator,
      NamespaceConfig.Fallback fallback,
      String defaultNamespace) {
    this.fields = List.copyOf(fields);
    this.separator = Objects.requireNonNull(separator, "separator");
    this.fallback = Objects.requireNonNull(fallback, "fallback");
    this.defaultNamespace = Objects.requireNonNull(defaultNamespace, "defaultNamespace");
  }

  /** True when namespace fields are configured. */
  public boolean enabled() {
    return !fields.isEmpty();
  }

  /** The namespace fields as configured. */
  public List<String> fields() {
    return fields.stream().map(FieldPath::text).toList();
  }

  /**
   * The topic a record with this value belongs to: the namespaced topic, or (no fields configured,
   * or fallback {@code topic} for a record without a namespace value) the topic itself.
   *
   * @throws DataException when a namespace field holds a struct, map, list or bytes, or is missing
   *     and the fallback is {@code fail}
   */
  public String route(String topic, Object value) {
    if (fields.isEmpty()) {
      return topic;
    }
    String namespace = namespace(value);
    if (namespace == null) {
      switch (fallback) {
        case TOPIC:
          return topic;
        case DEFAULT:
          return topicName(topic, separator, defaultNamespace);
        default:
          throw new DataException(
              "namespace field "
                  + String.join(", ", fields())
                  + " is missing, null or empty (namespace.fallback=fail)");
      }
    }
    return topicName(topic, separator, namespace);
  }

  /** The namespace of a Struct or Map value (field values joined); null when any is missing. */
  String namespace(Object value) {
    StringBuilder out = new StringBuilder();
    for (FieldPath field : fields) {
      String text = text(field, field.read(value));
      if (text == null) {
        return null;
      }
      if (out.length() > 0) {
        out.append(separator);
      }
      out.append(text);
    }
    return out.toString();
  }

  private static String text(FieldPath field, Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      String text = value.toString().trim();
      return text.isEmpty() ? null : text;
    }
    if (value instanceof java.util.Date date) {
      return date.toInstant().toString();
    }
    String kind = value instanceof Struct || value instanceof java.util.Map ? "an object" : null;
    kind = kind != null ? kind : value instanceof List ? "an array" : value.getClass().getName();
    throw new DataException(
        "namespace field " + field + " holds " + kind + "; expected a string, number or boolean");
  }

  /**
   * {@code {topic}{separator}{namespace}} as a legal topic name: characters outside {@code
   * [a-zA-Z0-9._-]} become {@code _}; a name over {@value #MAX_TOPIC_LENGTH} characters is cut and
   * ends in {@code -} and 8 hex digits of the SHA-256 of the full name.
   */
  public static String topicName(String topic, String separator, String namespace) {
    String full = topic + separator + namespace;
    StringBuilder out = new StringBuilder(full.length());
    for (int i = 0; i < full.length(); i++) {
      char c = full.charAt(i);
      boolean legal =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-';
      out.append(legal ? c : '_');
    }
    if (out.length() <= MAX_TOPIC_LENGTH) {
      return out.toString();
    }
    String hash = HexFormat.of().formatHex(sha256(full)).substring(0, HASH_CHARS);
    return out.substring(0, MAX_TOPIC_LENGTH - HASH_CHARS - 1) + "-" + hash;
  }

  private static byte[] sha256(String text) {
    return Sha256.digest(text.getBytes(StandardCharsets.UTF_8));
  }
}
