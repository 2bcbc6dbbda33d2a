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
  private final Ways strict;
  private final Ways lenient;
  private final EnvelopeReader envelopes;
  private final Lru<JsonNode, Schema> schemasByTree;
  private final LongAdder exactReads = new LongAdder();

  /**
   * The readers of one way: strict (refusing what Kafka would read as another value) or lenient
   * (reading it as Kafka does, to find Kafka's own errors).
   */
  private record Ways(ValueReader values, SchemaReader schemas, Schema fixedSchema) {
    static Ways of(boolean replaceNullWithDefault, boolean lenient, JsonNode schemaContent) {
      ValueReader values = new ValueReader(replaceNullWithDefault, lenient);
      SchemaReader schemas = new SchemaReader(values);
      return new Ways(values, schemas, schemaContent == null ? null : schemas.read(schemaContent));
    }
  }

  RecordReader(StreamingJsonConverterConfig config) {
    this.schemasEnabled = config.schemasEnabled();
    JsonNode content = schemaContent(config.schemaContent());
    this.strict = Ways.of(config.replaceNullWithDefault(), false, content);
    this.lenient = Ways.of(config.replaceNullWithDefault(), true, content);
    this.schemasByTree = new Lru<>(config.schemaCacheSize());
    this.envelopes =
        new EnvelopeReader(
            new SchemaBytesCache(config.schemaCacheSize(), strict.schemas()::read),
            strict.values());
  }

  private static JsonNode schemaContent(byte[] content) {
    if (content == null) {
      return null;
    }
    try {
      return Jackson.recordTree(content);
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
    SchemaAndValue streamed = null;
    if (!Jackson.hasByteFf(bytes)) {
      try {
        streamed = streamed(bytes);
      } catch (IOException | RuntimeException e) {
        streamed = null;
      }
    }
    return streamed != null ? streamed : exact(bytes);
  }

  /** The record read in one pass, or null where that pass does not apply. */
  private SchemaAndValue streamed(byte[] bytes) throws IOException {
    if (schemasEnabled && strict.fixedSchema() == null) {
      return envelopes.read(bytes);
    }
    Schema schema = schemasEnabled ? strict.fixedSchema() : null;
    try (JsonParser p = Jackson.RECORD.createParser(bytes)) {
      if (p.nextToken() == null) {
        return null;
      }
      return new SchemaAndValue(schema, strict.values().read(schema, p));
    }
  }

  /** How many records took the exact way (the rest were streamed). */
  long exactReads() {
    return exactReads.sum();
  }

  /**
   * Kafka's way: the whole record as a tree first, then its parts. A record refused for a value
   * Kafka would read as another is read once more as Kafka reads it: if Kafka's converter fails on
   * it anyway, its error is the one reported.
   */
  private SchemaAndValue exact(byte[] bytes) {
    exactReads.increment();
    JsonNode record;
    try {
      record = Jackson.recordTree(bytes);
    } catch (IOException | RuntimeException e) {
      throw new DataException(
          "Converting byte[] to Kafka Connect data failed due to serialization error: ",
          new SerializationException(e));
    }
    try {
      return exact(record, strict);
    } catch (LossyValueException refused) {
      exact(record, lenient);
      throw refused;
    }
  }

  private SchemaAndValue exact(JsonNode record, Ways ways) {
    if (!schemasEnabled) {
      return new SchemaAndValue(null, valueOf(ways.values(), null, record));
    }
    if (ways.fixedSchema() != null) {
      return new SchemaAndValue(
          ways.fixedSchema(), valueOf(ways.values(), ways.fixedSchema(), record));
    }
    if (!record.isObject()
        || record.size() != 2
        || !record.has("schema")
        || !record.has("payload")) {
      throw new DataException(ENVELOPE_REQUIRED);
    }
    Schema schema = schemaOf(record.get("schema"), ways);
    return new SchemaAndValue(schema, valueOf(ways.values(), schema, record.get("payload")));
  }

  private Schema schemaOf(JsonNode json, Ways ways) {
    if (json.isNull()) {
      return null;
    }
    if (ways == lenient) {
      return lenient.schemas().read(json);
    }
    Schema schema = schemasByTree.get(json);
    if (schema == null) {
      schema = strict.schemas().read(json);
      schemasByTree.put(json, schema);
    }
    return schema;
  }

  private static Object valueOf(ValueReader values, Schema schema, JsonNode json) {
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
