package io.skippr.connect.source.poll.config;

import com.fasterxml.jackson.core.JsonPointer;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Validators shared by the poll source's config fragments. */
final class Validators {

  private Validators() {}

  /** Empty, or a JSON pointer (RFC 6901) such as {@code /data/items}. */
  static final ConfigDef.Validator JSON_POINTER =
      ConfigDef.LambdaValidator.with(
          (name, value) -> {
            String text = value == null ? "" : value.toString();
            if (!text.isEmpty()) {
              try {
                JsonPointer.compile(text);
              } catch (IllegalArgumentException e) {
                throw new ConfigException(
                    name, value, "not a JSON pointer (it must start with '/', e.g. /data/id)");
              }
            }
          },
          () -> "empty or a JSON pointer such as /data/id");

  /** Empty, or an absolute http(s) URL; {@code ${...}} placeholders are allowed. */
  static final ConfigDef.Validator URL_OR_EMPTY =
      ConfigDef.LambdaValidator.with(
          (name, value) -> {
            String text = value == null ? "" : value.toString().trim();
            if (!text.isEmpty()) {
              checkUrl(name, text);
            }
          },
          () -> "empty or an absolute http:// or https:// URL");

  /** Checks an absolute http(s) URL, placeholders replaced by a harmless value. */
  static void checkUrl(String name, String text) {
    String probe = text.replaceAll("\\$\\{[a-z]+}", "x");
    try {
      URI uri = new URI(probe);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
        throw new ConfigException(name, text, "must be an absolute http:// or https:// URL");
      }
    } catch (URISyntaxException e) {
      throw new ConfigException(name, text, "not a URL: " + e.getReason());
    }
  }

  /** One of the given lower-case words, compared case-insensitively. */
  static ConfigDef.Validator oneOf(String... values) {
    return ConfigDef.CaseInsensitiveValidString.in(values);
  }
}
