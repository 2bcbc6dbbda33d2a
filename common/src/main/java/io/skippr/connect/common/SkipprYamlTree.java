package io.skippr.connect.common;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
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
 * would be ignored). The YAML parser's own limits stand: nesting up to 1,000 levels, 3 MiB of text.
 */
final class SkipprYamlTree {

  private static final YAMLFactory YAML = new YAMLFactory();
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
