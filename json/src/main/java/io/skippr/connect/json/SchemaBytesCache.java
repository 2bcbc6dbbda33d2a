package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Function;
import org.apache.kafka.connect.data.Schema;

/**
 * Envelope schemas by their bytes. A record whose schema bytes are those of the previous record
 * costs one comparison of those bytes; other known schemas cost finding where the schema ends and a
 * hash of its bytes; only a new schema is parsed and built.
 *
 * <p>A match at the start of the schema is enough: the cached bytes are one complete JSON object,
 * so a value that starts with them is exactly them.
 */
final class SchemaBytesCache {
  /** Schema bytes and the schema built from them. */
  record Entry(byte[] bytes, Schema schema) {
    boolean startsAt(byte[] input, int from) {
      int to = from + bytes.length;
      return to <= input.length && Arrays.equals(bytes, 0, bytes.length, input, from, to);
    }
  }

  private final Lru<ByteBuffer, Entry> entries;
  private final Function<JsonNode, Schema> build;
  private volatile Entry last;

  SchemaBytesCache(int capacity, Function<JsonNode, Schema> build) {
    this.entries = new Lru<>(capacity);
    this.build = build;
  }

  /** The schema of the JSON object that starts at {@code from}. */
  Entry at(byte[] input, int from) throws IOException {
    Entry previous = last;
    if (previous != null && previous.startsAt(input, from)) {
      return previous;
    }
    int to = endOfObject(input, from);
    Entry entry = entries.get(ByteBuffer.wrap(input, from, to - from));
    if (entry == null) {
      JsonNode json = Jackson.ENVELOPED_TREES.readTree(input, from, to - from);
      byte[] bytes = Arrays.copyOfRange(input, from, to);
      entry = new Entry(bytes, build.apply(json));
      entries.put(ByteBuffer.wrap(bytes), entry);
    }
    last = entry;
    return entry;
  }

  private static int endOfObject(byte[] input, int from) throws IOException {
    try (JsonParser p = Jackson.ENVELOPED.createParser(input, from, input.length - from)) {
      p.nextToken();
      p.skipChildren();
      return from + Math.toIntExact(p.currentLocation().getByteOffset());
    }
  }
}
