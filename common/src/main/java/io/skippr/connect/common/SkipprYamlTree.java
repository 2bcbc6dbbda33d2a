package io.skippr.connect.common;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;

/**
 * The tree of a {@code skippr.yml}, read token by token so that it holds what the file says and no
 * more: every scalar as the text it is written with (YAML 1.1 would make {@code 010} the number 8
 * and {@code on} true; YAML 1.2 and every setting here take text), {@code ~}, {@code null} and
 * empty values as null. What a reader would guess at is refused with its line: an alias (its value
 * would be the anchor's name), a key given twice (one value would be lost), a second document (it
 * would be ignored). Nesting goes up to 100 levels; the YAML parser reads at most 3 MiB of text.
 */
final class SkipprYamlTree {

  /**
   * Deepest nesting read; a skippr.yml needs a dozen levels. Flow collections ({@code [..]}, {@code
   * {..}}) are counted before the YAML parser sees the text: it scans all their openers ahead, in
   * time that grows faster than their depth (1,000 nested lists in 2 KB took a quarter of a second,
   * 3 MiB of them minutes), before any limit on events can stop it.
   */
  static final int MAX_DEPTH = 100;

  private static final YAMLFactory YAML = new YAMLFactory();

  static {
    YAML.setStreamReadConstraints(
        StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
  }

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Why the text is no usable file, with its line. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private final YAMLParser parser;

  private SkipprYamlTree(YAMLParser parser) {
    this.parser = parser;
  }

  /**
   * The document's tree; missing for an empty document.
   *
   * @throws IOException for text that is not YAML (Jackson's exception, with its location)
   * @throws Refused for YAML that is no skippr.yml
   */
  static JsonNode read(String text) throws IOException, Refused {
    checkFlowDepth(text);
    try (YAMLParser p = (YAMLParser) YAML.createParser(text)) {
      SkipprYamlTree tree = new SkipprYamlTree(p);
      JsonToken first = p.nextToken();
      if (first == null) {
        return MissingNode.getInstance();
      }
      JsonNode root = tree.value(first);
      if (p.nextToken() != null) {
        throw tree.refused("a second document: skippr.yml holds one");
      }
      return root;
    }
  }

  /**
   * Refuses flow collections nested deeper than {@link #MAX_DEPTH}, counting the brackets and
   * braces outside quoted scalars and comments (a plain scalar's brackets count too: none of a
   * skippr.yml's values holds a hundred).
   */
  static void checkFlowDepth(String text) throws Refused {
    int depth = 0;
    int line = 1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\n' -> line++;
        case '"', '\'' -> {
          int end = quotedEnd(text, i);
          line += (int) text.substring(i, end).chars().filter(ch -> ch == '\n').count();
          i = end - 1;
        }
        case '#' -> {
          if (i == 0 || Character.isWhitespace(text.charAt(i - 1))) {
            int end = text.indexOf('\n', i);
            i = (end < 0 ? text.length() : end) - 1;
          }
        }
        case '[', '{' -> {
          if (++depth > MAX_DEPTH) {
            throw new Refused(
                "line " + line + ": collections nested deeper than " + MAX_DEPTH + " levels");
          }
        }
        case ']', '}' -> depth = Math.max(0, depth - 1);
        default -> {}
      }
    }
  }

  /** The index after the quoted scalar that starts at {@code start} (or the text's end). */
  private static int quotedEnd(String text, int start) {
    char quote = text.charAt(start);
    for (int i = start + 1; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && quote == '"') {
        i++;
      } else if (c == quote) {
        return i + 1;
      }
    }
    return text.length();
  }

  private JsonNode value(JsonToken token) throws IOException, Refused {
    if (parser.isCurrentAlias()) {
      throw refused(
          "an alias (*"
              + parser.getText()
              + "): aliases and merge keys are not supported, write the value out");
    }
    return switch (token) {
      case START_OBJECT -> object();
      case START_ARRAY -> array();
      case VALUE_NULL -> NODES.nullNode();
      default -> NODES.textNode(parser.getText());
    };
  }

  private ObjectNode object() throws IOException, Refused {
    ObjectNode node = NODES.objectNode();
    JsonToken t;
    while ((t = parser.nextToken()) == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      if (node.has(key)) {
        throw refused("the key '" + key + "' is given twice in one mapping");
      }
      node.set(key, value(parser.nextToken()));
    }
    if (t != JsonToken.END_OBJECT) {
      throw refused("a mapping ends unexpectedly");
    }
    return node;
  }

  private ArrayNode array() throws IOException, Refused {
    ArrayNode node = NODES.arrayNode();
    JsonToken t;
    while ((t = parser.nextToken()) != JsonToken.END_ARRAY) {
      if (t == null) {
        throw refused("a list ends unexpectedly");
      }
      node.add(value(t));
    }
    return node;
  }

  private Refused refused(String what) {
    JsonLocation at = parser.currentTokenLocation();
    return new Refused("line " + (at == null ? "?" : at.getLineNr()) + ": " + what);
  }
}
