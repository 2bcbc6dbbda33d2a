package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.kafka.connect.data.Schema;

/**
 * The JSON payload of a value that was never built as a Struct or map: a source that parsed its
 * input writes the bytes straight away with {@link #generator}, and only {@link
 * StreamingJsonConverter} turns this value into a record (another converter cannot walk it).
 *
 * @param schema the schema the payload was written under, or null when schemaless
 * @param payload the bytes Kafka's JsonConverter would write for the value
 * @param depth how deeply the payload nests objects and arrays
 */
public record JsonPayload(Schema schema, byte[] payload, int depth) implements EncodedJson {

  /** Writes JSON as Kafka's JsonConverter writes it (the same numbers, escapes and limits). */
  public static JsonGenerator generator(OutputStream out) {
    try {
      return Jackson.RECORD.createGenerator(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Schema encodedSchema() {
    return schema;
  }

  @Override
  public byte[] encodedPayload() {
    return payload;
  }

  @Override
  public int encodedDepth() {
    return depth;
  }
}
