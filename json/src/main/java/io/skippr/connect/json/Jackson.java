package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;

/**
 * Jackson set up as Kafka's converter sets it up: leading zeros allowed in numbers, floats kept as
 * exact decimals in trees, the default limits. What sits inside an envelope is parsed and written
 * on its own, so it gets a nesting limit one level lower: the envelope's object is the level it
 * does not see.
 */
final class Jackson {
  /** Whole records: what Kafka's deserializer parses and its serializer writes. */
  static final JsonFactory RECORD = factory(0);

  /** A schema or payload inside an envelope, parsed or written without the envelope around it. */
  static final JsonFactory ENVELOPED = factory(1);

  /** Trees of whole records, as Kafka's deserializer reads them. */
  static final ObjectMapper RECORD_TREES = mapper(RECORD);

  /** Trees of envelope schemas, parsed from their bytes alone. */
  static final ObjectMapper ENVELOPED_TREES = mapper(ENVELOPED);

  private Jackson() {}

  /**
   * A record as a tree, as Kafka's deserializer reads it. Jackson keeps the field names it has seen
   * in a table that pads a name's last bytes with 0xFF, so a name holding 0xFF bytes (never valid
   * UTF-8) can be taken for a name seen before instead of failing: such input is parsed with a
   * table of its own, as a newly configured converter would.
   */
  static JsonNode recordTree(byte[] input) throws IOException {
    if (!hasByteFf(input)) {
      return RECORD_TREES.readTree(input);
    }
    try (JsonParser p = RECORD.copy().createParser(input)) {
      return RECORD_TREES.readTree(p);
    }
  }

  /** Whether the input holds a 0xFF byte, which no UTF-8 text holds. */
  static boolean hasByteFf(byte[] input) {
    for (byte b : input) {
      if (b == (byte) 0xFF) {
        return true;
      }
    }
    return false;
  }

  private static JsonFactory factory(int outerLevels) {
    StreamReadConstraints reads = StreamReadConstraints.defaults();
    StreamWriteConstraints writes = StreamWriteConstraints.defaults();
    return JsonFactory.builder()
        .enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
        // Doubles from their text without a String in between; correctly rounded like the JDK's
        // parser, so the value is the one Kafka's exact decimal rounds to (trees keep decimals).
        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
        .streamReadConstraints(
            reads.rebuild().maxNestingDepth(reads.getMaxNestingDepth() - outerLevels).build())
        .streamWriteConstraints(
            writes.rebuild().maxNestingDepth(writes.getMaxNestingDepth() - outerLevels).build())
        .build();
  }

  private static ObjectMapper mapper(JsonFactory factory) {
    return JsonMapper.builder(factory)
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .nodeFactory(new JsonNodeFactory(true))
        .build();
  }
}
