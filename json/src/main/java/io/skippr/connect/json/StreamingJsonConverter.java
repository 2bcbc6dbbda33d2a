package io.skippr.connect.json;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.ConverterConfig;
import org.apache.kafka.connect.storage.ConverterType;
import org.apache.kafka.connect.storage.HeaderConverter;

/**
 * A drop-in for Kafka's {@code org.apache.kafka.connect.json.JsonConverter}: the same keys, the
 * same JSON in both directions (envelopes with {@code schemas.enable}, plain JSON without), the
 * same values, schemas and errors, usable as key, value and header converter. It parses and writes
 * with Jackson's streaming API straight to and from Connect values, without a tree per record, and
 * keeps envelope schemas by their bytes.
 *
 * <p>It differs from Kafka's converter only where Kafka's reads a value other than the one written
 * (a string or an out-of-range number read as a number, NaN read back as 0, an integer beyond int64
 * read without a schema): such input is refused with a {@code DataException} (or, for NaN and the
 * infinities Kafka writes as strings, read back as they were written). See docs/json-converter.md.
 */
public class StreamingJsonConverter implements Converter, HeaderConverter, Versioned {
  private RecordReader reader;
  private RecordWriter writer;

  @Override
  public String version() {
    String version = StreamingJsonConverter.class.getPackage().getImplementationVersion();
    return version == null ? "unknown" : version;
  }

  @Override
  public ConfigDef config() {
    return StreamingJsonConverterConfig.CONFIG_DEF;
  }

  @Override
  public void configure(Map<String, ?> configs) {
    StreamingJsonConverterConfig config = new StreamingJsonConverterConfig(configs);
    reader = new RecordReader(config);
    writer = new RecordWriter(config);
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    Map<String, Object> withType = new HashMap<>(configs);
    withType.put(
        ConverterConfig.TYPE_CONFIG,
        isKey ? ConverterType.KEY.getName() : ConverterType.VALUE.getName());
    configure(withType);
  }

  @Override
  public byte[] fromConnectData(String topic, Schema schema, Object value) {
    return writer.write(schema, value);
  }

  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    return reader.read(value);
  }

  @Override
  public byte[] fromConnectHeader(String topic, String headerKey, Schema schema, Object value) {
    return fromConnectData(topic, schema, value);
  }

  @Override
  public SchemaAndValue toConnectHeader(String topic, String headerKey, byte[] value) {
    return toConnectData(topic, value);
  }

  /** Records read the exact (tree) way rather than streamed: for tests and benchmarks. */
  long exactReads() {
    return reader.exactReads();
  }

  @Override
  public void close() {
    // nothing held: parsers and generators are closed after each record
  }
}
