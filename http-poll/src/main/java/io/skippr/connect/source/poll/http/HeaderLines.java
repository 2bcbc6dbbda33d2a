package io.skippr.connect.source.poll.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigException;

/**
 * Parses {@code http.headers}: {@code Name: value} entries separated by newlines, or by commas that
 * are followed by another {@code Name:} (so {@code Accept: a, b} stays one header).
 */
public final class HeaderLines {

  private static final Pattern NEXT_HEADER =
      Pattern.compile(",(?=\\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+\\s*:)");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]+");

  private HeaderLines() {}

  /**
   * The headers in order.
   *
   * @throws ConfigException naming the key (never the value, which may be a secret)
   */
  public static List<Map.Entry<String, String>> parse(String key, String text) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return headers;
    }
    int n = 0;
    for (String line : text.split("\\R")) {
      for (String entry : NEXT_HEADER.split(line)) {
        n++;
        if (entry.isBlank()) {
          continue;
        }
        int colon = entry.indexOf(':');
        String name = colon < 0 ? "" : entry.substring(0, colon).trim();
        if (!NAME.matcher(name).matches()) {
          throw new ConfigException(
              key + ": header " + n + " is not of the form 'Name: value' (value not shown)");
        }
        headers.add(Map.entry(name, entry.substring(colon + 1).trim()));
      }
    }
    return headers;
  }
}
