package io.skippr.connect.state.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the scalar settings of a {@code skippr.yml} as dotted paths ({@code skippr.store.type}).
 *
 * <p>Only block mappings of scalars are understood; lists, block scalars and flow collections are
 * skipped, so a full configuration file can be read for the few keys the store needs without
 * pulling a YAML library into every plugin.
 */
final class SkipprYaml {
  private SkipprYaml() {}

  static Map<String, String> read(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new StateStoreException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  static Map<String, String> parse(String text) {
    Map<String, String> values = new LinkedHashMap<>();
    Deque<Parent> parents = new ArrayDeque<>();
    // Lines indented deeper than this belong to a list or block scalar we skip.
    int skipDeeperThan = -1;
    for (String raw : text.split("\r?\n", -1)) {
      String line = stripComment(raw.replace('\t', ' '));
      String content = line.strip();
      int indent = line.length() - line.stripLeading().length();
      if (content.isEmpty() || (skipDeeperThan >= 0 && indent > skipDeeperThan)) {
        continue;
      }
      skipDeeperThan = -1;
      if (content.startsWith("-")) {
        skipDeeperThan = indent;
        continue;
      }
      int colon = separator(content);
      if (colon < 0) {
        continue;
      }
      while (!parents.isEmpty() && parents.peek().indent() >= indent) {
        parents.pop();
      }
      String key = unquote(content.substring(0, colon).strip());
      String value = content.substring(colon + 1).strip();
      String path = pathOf(parents, key);
      if (value.isEmpty()) {
        parents.push(new Parent(indent, path));
      } else if (value.startsWith("|") || value.startsWith(">")) {
        skipDeeperThan = indent;
      } else {
        values.put(path, unquote(value));
      }
    }
    return values;
  }

  private record Parent(int indent, String path) {}

  private static String pathOf(Deque<Parent> parents, String key) {
    return parents.isEmpty() ? key : parents.peek().path() + "." + key;
  }

  /** Index of the ':' that ends a mapping key (followed by a space or the end), outside quotes. */
  private static int separator(String content) {
    char quote = 0;
    for (int i = 0; i < content.length(); i++) {
      char c = content.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == ':' && (i + 1 == content.length() || content.charAt(i + 1) == ' ')) {
        return i;
      }
    }
    return -1;
  }

  private static String stripComment(String line) {
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' && (i == 0 || line.charAt(i - 1) == ' ')) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  private static String unquote(String value) {
    if (value.length() >= 2) {
      char first = value.charAt(0);
      if ((first == '"' || first == '\'') && value.charAt(value.length() - 1) == first) {
        String inner = value.substring(1, value.length() - 1);
        return first == '"' ? inner.replace("\\\"", "\"").replace("\\\\", "\\") : inner;
      }
    }
    return value;
  }
}
