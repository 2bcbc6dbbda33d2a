package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;

/**
 * The fast way through an envelope: {@code {"schema": <object or null>, "payload": <value>}} in
 * that order, UTF-8, with any JSON whitespace between the parts, which is how Kafka's converter
 * (and this one) writes it. The envelope's outline is matched on the bytes, the schema is looked up
 * by its bytes, and only the payload is parsed.
 *
 * <p>Anything else (another key order, a key twice, a third key, another encoding) is not
 * attempted: {@link #read} returns null and the caller takes the exact path.
 */
final class EnvelopeReader {
  private static final byte[] SCHEMA_KEY = "\"schema\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PAYLOAD_KEY = "\"payload\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
  private static final String VALUE_STARTS = "{[\"-0123456789tfn";
  private static final String NUMBER_CHARS = "0123456789.eE+-";

  private final SchemaBytesCache schemas;
  private final ValueReader values;

  EnvelopeReader(SchemaBytesCache schemas, ValueReader values) {
    this.schemas = schemas;
    this.values = values;
  }

  /** The record, or null when the input does not have the usual outline. */
  SchemaAndValue read(byte[] in) throws IOException {
    int i = member(in, skip(in, 0), (byte) '{', SCHEMA_KEY);
    if (i < 0) {
      return null;
    }
    Schema schema;
    if (startsWith(in, i, NULL)) {
      schema = null;
      i += NULL.length;
    } else if (plainStart(in, i) && in[i] == '{') {
      SchemaBytesCache.Entry entry = schemas.at(in, i);
      schema = entry.schema();
      i += entry.bytes().length;
    } else {
      return null;
    }
    int start = member(in, skip(in, i), (byte) ',', PAYLOAD_KEY);
    if (start < 0 || !plainStart(in, start)) {
      return null;
    }
    int limit = numberEnd(in, start);
    try (JsonParser p = Jackson.ENVELOPED.createParser(in, start, limit - start)) {
      if (p.nextToken() == null) {
        return null;
      }
      Object value = values.read(schema, p);
      int end = skip(in, start + Math.toIntExact(p.currentLocation().getByteOffset()));
      if (end >= in.length || in[end] != '}') {
        return null;
      }
      return new SchemaAndValue(schema, value);
    }
  }

  /**
   * Matches {@code <opener> <key> :} at {@code i} (whitespace allowed between) and returns where
   * the member's value starts, or -1.
   */
  private static int member(byte[] in, int i, byte opener, byte[] key) {
    if (i >= in.length || in[i] != opener) {
      return -1;
    }
    i = skip(in, i + 1);
    if (!startsWith(in, i, key)) {
      return -1;
    }
    i = skip(in, i + key.length);
    if (i >= in.length || in[i] != ':') {
      return -1;
    }
    return skip(in, i + 1);
  }

  /**
   * Where the payload's bytes are handed to the parser up to: a number at the top of a parser must
   * be followed by whitespace or the end, so a number payload gets the bytes that can belong to a
   * number (the parser checks they form one); any other payload gets the rest of the record.
   */
  private static int numberEnd(byte[] in, int start) {
    byte first = in[start];
    if (first != '-' && (first < '0' || first > '9')) {
      return in.length;
    }
    int i = start + 1;
    while (i < in.length && NUMBER_CHARS.indexOf(in[i]) >= 0) {
      i++;
    }
    return i;
  }

  private static boolean startsWith(byte[] in, int i, byte[] prefix) {
    if (i + prefix.length > in.length) {
      return false;
    }
    for (int k = 0; k < prefix.length; k++) {
      if (in[i + k] != prefix[k]) {
        return false;
      }
    }
    return true;
  }

  /** JSON whitespace, as Jackson skips it. */
  private static int skip(byte[] in, int i) {
    while (i < in.length) {
      byte b = in[i];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        break;
      }
      i++;
    }
    return i;
  }

  /**
   * Whether a parser started at {@code start} reads what the parser of the whole record reads
   * there: a value's first byte (never a byte order mark) and UTF-8, which Jackson would doubt if a
   * zero byte were among the first four.
   */
  private static boolean plainStart(byte[] in, int start) {
    if (start >= in.length || VALUE_STARTS.indexOf(in[start]) < 0) {
      return false;
    }
    int end = Math.min(in.length, start + 4);
    for (int i = start + 1; i < end; i++) {
      if (in[i] == 0) {
        return false;
      }
    }
    return true;
  }
}
