package io.skippr.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;

/**
 * Bytes to a Connect value, two ways. The streaming way parses straight into Connect values and
 * serves every well-formed record of the usual shape. Whenever it cannot finish (another envelope
 * layout, malformed JSON, a value the schema refuses), the exact way decides: it parses the record
 * into a tree as Kafka's converter does, so the outcome (the value, or which error, with Kafka's
 * message) is Kafka's, and converts the tree's parts with the same readers.
 */
final class RecordReader {
  private static final String ENVELOPE_REQUIRED =
      "JsonConverter with schemas.enable requires \"schema\" and \"payload\" fields and may not"
          + " contain additional fields. If you are trying to deserialize plain JSON data, set"
          + " schemas.enable=false in your converter configuration.";

  private final boolean schemasEnabled;
  private final Schema fixedSchema;
  private final ValueReader values;
  private final SchemaReader schemaReader;
  private final EnvelopeReader envelopes;
  private final Lru<JsonNode, Schema> schemasByTree;
  private final LongAdder exactReads = new LongAdder();

  RecordReader(StreamingJsonConverterConfig config) {
    this.schemasEnabled = config.schemasEnabled();
    this.values = new ValueReader(config.replaceNullWithDefault());
    this.schemaReader = new SchemaReader(values);
    this.schemasByTree = new Lru<>(config.schemaCacheSize());
    this.envelopes =
        new EnvelopeReader(
            new SchemaBytesCache(config.schemaCacheSize(), schemaReader::read), values);
    this.fixedSchema = fixedSchema(config.schemaContent());
  }

  private Schema fixedSchema(byte[] content) {
    if (content == null) {
      return null;
    }
    try {
      return schemaReader.read(Jackson.RECORD_TREES.readTree(content));
    } catch (IOException e) {
      throw new DataException(
          "Failed to parse schema in converter config due to serialization error: ",
          new SerializationException(e));
    }
  }

  SchemaAndValue read(byte[] bytes) {
    if (bytes == null) {
      return SchemaAndValue.NULL;
    }
    SchemaAndValue streamed;
    try {
      streamed = streamed(bytes);
    } catch (IOException | RuntimeException e) {
      streamed = null;
    }
    return streamed != null ? streamed : exact(bytes);
  }

  /** The record read in one pass, or null where that pass does not apply. */
  private SchemaAndValue streamed(byte[] bytes) throws IOException {
    if (schemasEnabled && fixedSchema == null) {
      return envelopes.read(bytes);
    }
    Schema schema = schemasEnabled ? fixedSchema : null;
    try (JsonParser p = Jackson.RECORD.createParser(bytes)) {
      if (p.nextToken() == null) {
        return null;
      }
      return new SchemaAndValue(schema, values.read(schema, p));
    }
  }

  /** How many records took the exact way (the rest were streamed). */
  long exactReads() {
    return exactReads.sum();
  }

  /** Kafka's way: the whole record as a tree first, then its parts. */
  private SchemaAndValue exact(byte[] bytes) {
    exactReads.increment();
    JsonNode record;
    try {
      record = Jackson.RECORD_TREES.readTree(bytes);
    } catch (IOException | RuntimeException e) {
      throw new DataException(
          "Converting byte[] to Kafka Connect data failed due to serialization error: ",
          new SerializationException(e));
    }
    if (!schemasEnabled) {
      return new SchemaAndValue(null, valueOf(null, record));
    }
    if (fixedSchema != null) {
      return new SchemaAndValue(fixedSchema, valueOf(fixedSchema, record));
    }
    if (!record.isObject()
        || record.size() != 2
        || !record.has("schema")
        || !record.has("payload")) {
      throw new DataException(ENVELOPE_REQUIRED);
    }
    Schema schema = schemaOf(record.get("schema"));
    return new SchemaAndValue(schema, valueOf(schema, record.get("payload")));
  }

  private Schema schemaOf(JsonNode json) {
    if (json.isNull()) {
      return null;
    }
    Schema schema = schemasByTree.get(json);
    if (schema == null) {
      schema = schemaReader.read(json);
      schemasByTree.put(json, schema);
    }
    return schema;
  }

  private Object valueOf(Schema schema, JsonNode json) {
    try (JsonParser p = json.traverse()) {
      // A missing node (empty input) has no token: the readers take that as Kafka's MISSING.
      if (!json.isMissingNode()) {
        p.nextToken();
      }
      return values.read(schema, p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
