package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * A Connect value to bytes, written straight to a generator. With schemas enabled the envelope's
 * start ({@code {"schema":...,"payload":}) is kept per schema as bytes, so a known schema costs a
 * copy, not a serialization.
 */
final class RecordWriter {
  private final boolean schemasEnabled;
  private final ValueWriter values;
  private final SchemaWriter schemaWriter;
  private final Lru<Schema, byte[]> prefixes;
  private final byte[] schemalessPrefix;
  private final int maxDepth;
  private volatile Prefix last;

  private record Prefix(Schema schema, byte[] bytes) {}

  RecordWriter(StreamingJsonConverterConfig config) {
    this.schemasEnabled = config.schemasEnabled();
    this.values = new ValueWriter(config.replaceNullWithDefault(), config.decimalFormat());
    this.schemaWriter = new SchemaWriter(values);
    this.prefixes = new Lru<>(config.schemaCacheSize());
    this.maxDepth =
        (schemasEnabled ? Jackson.ENVELOPED : Jackson.RECORD)
            .streamWriteConstraints()
            .getMaxNestingDepth();
    try {
      this.schemalessPrefix = prefix(null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  byte[] write(Schema schema, Object value) {
    if (schema == null && value == null) {
      return null;
    }
    if (value instanceof EncodedJson encoded) {
      byte[] copied = copy(schema, encoded);
      if (copied != null) {
        return copied;
      }
      if (value instanceof JsonPayload) {
        throw new DataException(
            "A JSON payload written under another schema, or nested too deeply, cannot be"
                + " converted");
      }
    }
    ByteSink out = new ByteSink(512);
    try {
      if (!schemasEnabled) {
        writeValue(Jackson.RECORD, schema, value, out);
        return out.toByteArray();
      }
      out.write(envelopePrefix(schema));
      writeValue(Jackson.ENVELOPED, schema, value, out);
      out.write('}');
      return out.toByteArray();
    } catch (StreamConstraintsException e) {
      // Kafka converts the whole value before it serializes: its conversion errors come first.
      check(schema, value);
      throw serializationFailed(e);
    } catch (IOException e) {
      throw serializationFailed(e);
    }
  }

  /**
   * The record of a value that holds its payload: the payload itself, or inside the envelope of its
   * schema; null when the value must be walked instead (no payload, another schema, or deeper than
   * the generator allows, so that Kafka's error is raised).
   */
  private byte[] copy(Schema schema, EncodedJson encoded) {
    byte[] payload = encoded.encodedPayload();
    Schema written = encoded.encodedSchema();
    if (payload == null
        || encoded.encodedDepth() > maxDepth
        || (schema != written && (schema == null || !schema.equals(written)))) {
      return null;
    }
    if (!schemasEnabled) {
      return payload;
    }
    try {
      byte[] prefix = envelopePrefix(schema);
      byte[] record = new byte[prefix.length + payload.length + 1];
      System.arraycopy(prefix, 0, record, 0, prefix.length);
      System.arraycopy(payload, 0, record, prefix.length, payload.length);
      record[record.length - 1] = '}';
      return record;
    } catch (IOException e) {
      throw serializationFailed(e);
    }
  }

  private void writeValue(JsonFactory factory, Schema schema, Object value, OutputStream out)
      throws IOException {
    try (JsonGenerator g = factory.createGenerator(out)) {
      values.write(schema, value, g);
    }
  }

  /** Runs the conversion without limits or output, for its errors. */
  private void check(Schema schema, Object value) {
    JsonFactory unlimited =
        Jackson.RECORD
            .rebuild()
            .streamWriteConstraints(
                StreamWriteConstraints.builder().maxNestingDepth(Integer.MAX_VALUE).build())
            .build();
    try {
      writeValue(unlimited, schema, value, OutputStream.nullOutputStream());
    } catch (IOException e) {
      // nothing but the depth could fail, and it is reported by the caller
    }
  }

  private static DataException serializationFailed(IOException e) {
    return new DataException(
        "Converting Kafka Connect data to byte[] failed due to serialization error: ",
        new SerializationException("Error serializing JSON message", e));
  }

  private byte[] envelopePrefix(Schema schema) throws IOException {
    if (schema == null) {
      return schemalessPrefix;
    }
    Prefix previous = last;
    if (previous != null && previous.schema() == schema) {
      return previous.bytes();
    }
    byte[] bytes = prefixes.get(schema);
    if (bytes == null) {
      bytes = prefix(schema);
      prefixes.put(schema, bytes);
    }
    last = new Prefix(schema, bytes);
    return bytes;
  }

  /** {@code {"schema":<schema>,"payload":} as Kafka's serializer writes it. */
  private byte[] prefix(Schema schema) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = Jackson.RECORD.createGenerator(out)) {
      g.writeStartObject();
      g.writeFieldName("schema");
      if (schema == null) {
        g.writeNull();
      } else {
        schemaWriter.write(schema, g);
      }
      g.writeFieldName("payload");
      g.flush();
      // the generator writes a member's colon with its value, which is written separately
      out.write(':');
      return out.toByteArray();
    }
  }
}
