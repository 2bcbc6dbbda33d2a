package io.skippr.connect.source.http.convert;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Keeps every record the task hands to Connect within a size the producer sends: a record over the
 * producer's {@code max.request.size} fails its transaction, and with it every request of the batch
 * and the task. The size counted is what Connect's JsonConverter with schemas writes — the largest
 * of the usual converters (Avro and Protobuf write less) — or the bytes themselves when the value
 * is bytes already ({@code record.encoding=json}).
 *
 * <p>A cheap upper bound (every string character counted as written, a generous allowance per
 * column) clears almost every record; only one near the limit is written out to be measured.
 */
public final class RecordBound {

  /** Bytes allowed per column of a schema, on top of its name: type, optional, name, version. */
  private static final int COLUMN_ALLOWANCE = 128;

  /** Bytes allowed per value, key, header, map entry or list element besides its text. */
  private static final int VALUE_ALLOWANCE = 32;

  private final long maxBytes;
  private final JsonConverter json = new JsonConverter();

  /**
   * @param maxBytes the largest record (key, value and headers) let through
   */
  public RecordBound(long maxBytes) {
    this.maxBytes = maxBytes;
    json.configure(Map.of("schemas.enable", "true", "converter.type", "value"));
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** The record's size when it is over the bound; empty when it fits. */
  public OptionalLong oversize(SourceRecord record) {
    if (upperBound(record) <= maxBytes) {
      return OptionalLong.empty();
    }
    long size = measure(record);
    return size > maxBytes ? OptionalLong.of(size) : OptionalLong.empty();
  }

  /** At least the bytes the record takes in the usual converters' hands. */
  static long upperBound(SourceRecord record) {
    long bytes = keyAndHeaders(record);
    if (record.value() instanceof byte[] b) {
      return bytes + b.length;
    }
    return bytes + schemaBound(record.valueSchema()) + valueBound(record.value());
  }

  /** The bytes JsonConverter with schemas writes for the value, plus the key and headers. */
  private long measure(SourceRecord record) {
    long bytes = keyAndHeaders(record);
    if (record.value() instanceof byte[] b) {
      return bytes + b.length;
    }
    byte[] value = json.fromConnectData(record.topic(), record.valueSchema(), record.value());
    return bytes + (value == null ? 0 : value.length);
  }

  private static long keyAndHeaders(SourceRecord record) {
    long bytes = VALUE_ALLOWANCE + COLUMN_ALLOWANCE + valueBound(record.key());
    for (Header h : record.headers()) {
      bytes += VALUE_ALLOWANCE + jsonLength(h.key()) + valueBound(h.value());
    }
    return bytes;
  }

  private static long schemaBound(Schema schema) {
    if (schema == null) {
      return VALUE_ALLOWANCE;
    }
    long bytes = COLUMN_ALLOWANCE + (schema.name() == null ? 0 : jsonLength(schema.name()));
    switch (schema.type()) {
      case STRUCT -> {
        for (Field f : schema.fields()) {
          bytes += jsonLength(f.name()) + schemaBound(f.schema());
        }
      }
      case ARRAY -> bytes += schemaBound(schema.valueSchema());
      case MAP -> bytes += schemaBound(schema.keySchema()) + schemaBound(schema.valueSchema());
      default -> {}
    }
    return bytes;
  }

  private static long valueBound(Object value) {
    if (value instanceof String s) {
      return VALUE_ALLOWANCE + jsonLength(s);
    } else if (value instanceof Struct struct) {
      long bytes = VALUE_ALLOWANCE;
      for (Field f : struct.schema().fields()) {
        bytes += VALUE_ALLOWANCE + jsonLength(f.name()) + valueBound(struct.get(f));
      }
      return bytes;
    } else if (value instanceof Map<?, ?> map) {
      long bytes = VALUE_ALLOWANCE;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        bytes += valueBound(e.getKey()) + valueBound(e.getValue());
      }
      return bytes;
    } else if (value instanceof List<?> list) {
      long bytes = VALUE_ALLOWANCE;
      for (Object element : list) {
        bytes += valueBound(element);
      }
      return bytes;
    } else if (value instanceof byte[] b) {
      return VALUE_ALLOWANCE + (b.length + 2L) / 3 * 4; // base64 in JSON
    }
    return VALUE_ALLOWANCE; // numbers, booleans, dates, null
  }

  /** At least the bytes of the string in JSON: escapes take up to 6 bytes, UTF-8 up to 3. */
  static long jsonLength(String s) {
    long bytes = 2;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      bytes += c < 0x20 ? 6 : c == '"' || c == '\\' ? 2 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }
    return bytes;
  }
}
