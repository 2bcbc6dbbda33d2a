package io.skippr.connect.aws;

import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.types.Password;

/**
 * Set values by key, stripped, null when unset or blank: what the AWS fragments read, from a parsed
 * config (passwords revealed) or from the raw properties a connector's {@code validate()} gets.
 */
@FunctionalInterface
public interface ConfigLookup {
  /** The value of {@code key}, stripped; null when unset or blank. */
  String get(String key);

  /** The values of a parsed config; a {@link Password} gives its value. */
  static ConfigLookup of(AbstractConfig config) {
    Map<String, ?> values = config.values();
    return key -> text(values.get(key));
  }

  /** The values of raw properties. */
  static ConfigLookup of(Map<String, String> props) {
    return key -> text(props.get(key));
  }

  /** The values of any function of keys (such as a store's settings). */
  static ConfigLookup of(Function<String, String> values) {
    return key -> text(values.apply(key));
  }

  private static String text(Object value) {
    if (value == null) {
      return null;
    }
    String text = value instanceof Password password ? password.value() : value.toString();
    text = text.strip();
    return text.isEmpty() ? null : text;
  }
}
