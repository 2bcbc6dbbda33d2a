package io.skippr.connect.source.file.format;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.skippr.connect.json.ByteSink;
import io.skippr.connect.json.JsonPayload;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * One JSON object copied token by token from a parser into the payload Kafka's JsonConverter writes
 * for the map {@link NdjsonParser} reads from it (integers as 64-bit, other numbers as doubles,
 * strings re-escaped), checked as that reading checks, with no map in between. An object that names
 * a field twice is not copied ({@link RepeatedName}): its map keeps the first place and the last
 * value, which a copy cannot write without going back.
 */
final class JsonLineCopy {

  /** Fields of an object looked up by scanning before a set is made for them. */
  private static final int SCANNED_NAMES = 16;

  /** Thrown for an object that names a field twice. */
  static final class RepeatedName extends Exception {
    private static final long serialVersionUID = 1L;

    RepeatedName() {
      super(null, null, false, false);
    }
  }

  private int depth;
  private int maxDepth;

  /** Copies the object whose START_OBJECT the parser is on. */
  static JsonPayload object(JsonParser p, int expectedBytes) throws IOException, RepeatedName {
    JsonLineCopy copy = new JsonLineCopy();
    ByteSink out = new ByteSink(expectedBytes);
    try (JsonGenerator g = JsonPayload.generator(out)) {
      copy.copyObject(p, g);
    }
    return new JsonPayload(null, out.toByteArray(), copy.maxDepth);
  }

  private void copyObject(JsonParser p, JsonGenerator g) throws IOException, RepeatedName {
    enter();
    g.writeStartObject();
    Names names = new Names();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      if (!names.add(name)) {
        throw new RepeatedName();
      }
      g.writeFieldName(name);
      copyValue(p, p.nextToken(), g);
    }
    g.writeEndObject();
    depth--;
  }

  private void copyArray(JsonParser p, JsonGenerator g) throws IOException, RepeatedName {
    enter();
    g.writeStartArray();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      copyValue(p, t, g);
    }
    g.writeEndArray();
    depth--;
  }

  private void copyValue(JsonParser p, JsonToken token, JsonGenerator g)
      throws IOException, RepeatedName {
    switch (token) {
      case START_OBJECT -> copyObject(p, g);
      case START_ARRAY -> copyArray(p, g);
      case VALUE_STRING ->
          g.writeString(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
      case VALUE_NUMBER_INT -> g.writeNumber(NdjsonParser.integer(p));
      case VALUE_NUMBER_FLOAT -> g.writeNumber(NdjsonParser.decimal(p));
      case VALUE_TRUE -> g.writeBoolean(true);
      case VALUE_FALSE -> g.writeBoolean(false);
      default -> g.writeNull();
    }
  }

  private void enter() {
    depth++;
    maxDepth = Math.max(maxDepth, depth);
  }

  /** The names of one object so far: scanned while few, then a set. */
  private static final class Names {
    private String[] scanned = new String[4];
    private int count;
    private Set<String> set;

    boolean add(String name) {
      if (set != null) {
        return set.add(name);
      }
      for (int i = 0; i < count; i++) {
        if (scanned[i].equals(name)) {
          return false;
        }
      }
      if (count == SCANNED_NAMES) {
        set = new HashSet<>(Arrays.asList(scanned));
        return set.add(name);
      }
      if (count == scanned.length) {
        scanned = Arrays.copyOf(scanned, count * 2);
      }
      scanned[count++] = name;
      return true;
    }
  }
}
