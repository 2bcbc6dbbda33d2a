package io.skippr.connect.state.connect;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;

/**
 * Source offsets in Connect's own encoding, byte for byte what a worker writes to its offsets
 * topic: key JSON {@code [connector,{partition}]}, value JSON of the offset map (schemaless
 * JsonConverter, as Connect's internal converters are configured).
 */
public final class ConnectOffsetCodec {
  private final JsonConverter keys = converter(true);
  private final JsonConverter values = converter(false);

  /** A decoded key of Connect's offsets topic. */
  public record OffsetKey(String connector, Map<String, Object> partition) {}

  public byte[] key(String connector, Map<String, ?> partition) {
    return keys.fromConnectData(connector, null, Arrays.asList(connector, partition));
  }

  /** The value bytes, or null for a null offset (a tombstone: the partition was reset). */
  public byte[] value(String connector, Map<String, ?> offset) {
    return offset == null ? null : values.fromConnectData(connector, null, offset);
  }

  public OffsetKey decodeKey(byte[] key) {
    SchemaAndValue decoded = keys.toConnectData("", key);
    if (!(decoded.value() instanceof List<?> parts)
        || parts.size() != 2
        || !(parts.get(0) instanceof String connector)
        || !(parts.get(1) instanceof Map<?, ?> partition)) {
      throw new IllegalArgumentException(
          "not a Connect offsets key ([connector, {partition}]): " + decoded.value());
    }
    return new OffsetKey(connector, stringKeys(partition));
  }

  public Map<String, Object> decodeValue(byte[] value) {
    if (value == null) {
      return null;
    }
    Object decoded = values.toConnectData("", value).value();
    if (!(decoded instanceof Map<?, ?> offset)) {
      throw new IllegalArgumentException("not a Connect offset map: " + decoded);
    }
    return stringKeys(offset);
  }

  private static Map<String, Object> stringKeys(Map<?, ?> map) {
    Map<String, Object> result = new LinkedHashMap<>();
    map.forEach((k, v) -> result.put(String.valueOf(k), v));
    return result;
  }

  private static JsonConverter converter(boolean isKey) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "false"), isKey);
    return converter;
  }
}
