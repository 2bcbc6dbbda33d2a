package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Moving past values that are not converted. Kafka's converter parses every value of a record into
 * its tree, so whatever would fail there (a malformed string, a float whose exponent no decimal can
 * hold) must fail here too, even in a field the schema does not have: skipped values are decoded,
 * not just stepped over.
 */
final class Skipping {
  private Skipping() {}

  /** Moves from a value's first token to its last, decoding as Kafka's tree would. */
  static void skipValue(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      return; // the missing value of empty input: nothing to move past
    }
    int depth = 0;
    do {
      if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
        depth++;
      } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
        depth--;
      } else {
        decode(p, t);
      }
      if (depth > 0) {
        t = p.nextToken();
      }
    } while (depth > 0);
  }

  /**
   * After a failure inside a value of the container whose context is {@code container}, moves to
   * that value's last token.
   */
  static void finishValue(JsonParser p, JsonStreamContext container) throws IOException {
    // the failure may have come before the token it stands on was decoded
    if (p.currentToken() != null) {
      decode(p, p.currentToken());
    }
    while (p.getParsingContext() != container) {
      decode(p, p.nextToken());
    }
  }

  private static void decode(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_STRING) {
      p.getText();
    } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      double d = p.getDoubleValue();
      if (d == 0d || Double.isInfinite(d)) {
        p.getDecimalValue();
      }
    } else if (t == null) {
      throw new IOException("Unexpected end of input");
    }
  }
}
