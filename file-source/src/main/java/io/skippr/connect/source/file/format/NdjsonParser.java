package io.skippr.connect.source.file.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerationException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.skippr.connect.source.file.read.Frame;
import java.io.IOException;
import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One JSON object per line, as a schemaless map (nested maps and lists, long, double, boolean,
 * string, null) that the lake sink or {@code InferSchema} types — or, for {@code
 * record.encoding=json}, as the JSON payload of that map copied straight from the line ({@link
 * JsonLineCopy}). Blank lines are skipped; a line that is not one JSON object (malformed, another
 * value, text after the object, an integer beyond 64 bits, invalid UTF-8) is rejected.
 */
public final class NdjsonParser implements RecordParser {

  private static final JsonFactory JSON = new JsonFactory();

  private final boolean payloads;

  /** Values as maps. */
  public NdjsonParser() {
    this(false);
  }

  /**
   * @param payloads values as their JSON payload (a line naming a field twice: as a map)
   */
  public NdjsonParser(boolean payloads) {
    this.payloads = payloads;
  }

  @Override
  public Parsed parse(Frame frame) {
    byte[] buf = frame.buf();
    if (isBlank(buf, frame.start(), frame.end())) {
      return null;
    }
    if (Utf8Text.firstInvalid(buf, frame.start(), frame.length()) >= 0) {
      return Parsed.rejected(Utf8Text.problem(buf, frame.start(), frame.length()));
    }
    CharBuffer chars =
        Utf8Text.mayLookLikeUtf16(buf, frame.start(), frame.length())
            ? Utf8Text.decode(buf, frame.start(), frame.length())
            : null;
    if (payloads) {
      try {
        return parse(frame, chars, true);
      } catch (JsonLineCopy.RepeatedName e) {
        // read as a map, which keeps each repeated name's last value in its first place
      }
    }
    try {
      return parse(frame, chars, false);
    } catch (JsonLineCopy.RepeatedName e) {
      throw new IllegalStateException("maps take repeated names", e);
    }
  }

  private static Parsed parse(Frame frame, CharBuffer chars, boolean payload)
      throws JsonLineCopy.RepeatedName {
    try (JsonParser p =
        chars == null
            ? JSON.createParser(frame.buf(), frame.start(), frame.length())
            : JSON.createParser(chars.array(), 0, chars.limit())) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return Parsed.rejected("line is not a JSON object");
      }
      Object value = payload ? JsonLineCopy.object(p, frame.length() + 16) : object(p);
      if (p.nextToken() != null) {
        return Parsed.rejected("text after the JSON object");
      }
      return Parsed.value(value);
    } catch (JsonGenerationException e) {
      // JsonConverter could not write it either (a lone surrogate): the map would fail the task
      return Parsed.rejected("value cannot be written as JSON: " + e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      return Parsed.rejected("malformed JSON: " + e.getOriginalMessage());
    } catch (IOException | IllegalArgumentException e) {
      return Parsed.rejected(e.getMessage());
    }
  }

  private static Map<String, Object> object(JsonParser p) throws IOException {
    Map<String, Object> map = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      map.put(name, value(p, p.nextToken()));
    }
    return map;
  }

  private static Object value(JsonParser p, JsonToken token) throws IOException {
    return switch (token) {
      case START_OBJECT -> object(p);
      case START_ARRAY -> array(p);
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT -> integer(p);
      case VALUE_NUMBER_FLOAT -> decimal(p);
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      default -> null;
    };
  }

  private static List<Object> array(JsonParser p) throws IOException {
    List<Object> list = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      list.add(value(p, t));
    }
    return list;
  }

  static long integer(JsonParser p) throws IOException {
    JsonParser.NumberType type = p.getNumberType();
    if (type == JsonParser.NumberType.BIG_INTEGER) {
      throw new IllegalArgumentException("integer " + p.getText() + " outside the 64-bit range");
    }
    return p.getLongValue();
  }

  static double decimal(JsonParser p) throws IOException {
    double d = p.getDoubleValue();
    if (Double.isInfinite(d)) {
      throw new IllegalArgumentException(
          "number " + p.getText() + " outside the 64-bit float range");
    }
    return d;
  }

  private static boolean isBlank(byte[] b, int start, int end) {
    for (int i = start; i < end; i++) {
      byte c = b[i];
      if (c != ' ' && c != '\t' && c != '\r') {
        return false;
      }
    }
    return true;
  }
}
