package io.skippr.connect.json;

import org.apache.kafka.connect.data.Schema;

/**
 * A Connect value that already holds its JSON: the payload bytes Kafka's JsonConverter writes for
 * it, whatever the converter's settings (so the value holds no decimals and its schema no
 * defaults). {@link StreamingJsonConverter} copies these bytes (inside its envelope when schemas
 * are enabled) instead of walking the value; any other converter sees an ordinary value.
 */
public interface EncodedJson {

  /** The schema the payload was written under: the value's schema, or null when schemaless. */
  Schema encodedSchema();

  /** The payload, or null when the value must be walked (it may have changed since). */
  byte[] encodedPayload();

  /** How deeply the payload nests objects and arrays: an object of scalars is 1. */
  int encodedDepth();
}
