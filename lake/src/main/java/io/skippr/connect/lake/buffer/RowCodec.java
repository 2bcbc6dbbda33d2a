package io.skippr.connect.lake.buffer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Writes a row as compact bytes and reads it back as an equal struct: the same schema, and values
 * of the same Java types in the same order (a map keeps its iteration order), so Parquet writes the
 * same bytes from the row read back as from the original. Every value is a presence byte and its
 * payload: integers as zigzag varints, floating numbers as their bits, strings as UTF-8, dates as
 * epoch milliseconds, decimals as scale and unscaled bytes.
 */
final class RowCodec {
  private static final String CONNECT_LOGICAL = "org.apache.kafka.connect.data.";
  private static final java.util.Set<String> DATES =
      java.util.Set.of(
          org.apache.kafka.connect.data.Timestamp.LOGICAL_NAME,
          org.apache.kafka.connect.data.Date.LOGICAL_NAME,
          org.apache.kafka.connect.data.Time.LOGICAL_NAME);

  private RowCodec() {}

  /** A growable byte array written front to back. */
  static final class Sink {
    byte[] bytes = new byte[256];
    int length;

    void reset() {
      length = 0;
    }

    void write(int b) {
      ensure(1);
      bytes[length++] = (byte) b;
    }

    void write(byte[] b) {
      writeVarLong(b.length);
      ensure(b.length);
      System.arraycopy(b, 0, bytes, length, b.length);
      length += b.length;
    }

    void writeVarLong(long value) {
      long zigzag = (value << 1) ^ (value >> 63);
      ensure(10);
      while ((zigzag & ~0x7FL) != 0) {
        bytes[length++] = (byte) ((zigzag & 0x7F) | 0x80);
        zigzag >>>= 7;
      }
      bytes[length++] = (byte) zigzag;
    }

    void writeFixed(long bits, int count) {
      ensure(count);
      for (int i = 0; i < count; i++) {
        bytes[length++] = (byte) (bits >>> (8 * i));
      }
    }

    private void ensure(int more) {
      if (length + more > bytes.length) {
        bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
      }
    }
  }

  /** Reads what a {@link Sink} wrote, from an offset of an array. */
  static final class Source {
    private final byte[] bytes;
    private int at;

    Source(byte[] bytes, int at) {
      this.bytes = bytes;
      this.at = at;
    }

    int position() {
      return at;
    }

    int read() {
      return bytes[at++];
    }

    byte[] readBytes() {
      int length = (int) readVarLong();
      byte[] out = java.util.Arrays.copyOfRange(bytes, at, at + length);
      at += length;
      return out;
    }

    String readString() {
      int length = (int) readVarLong();
      String text = new String(bytes, at, length, StandardCharsets.UTF_8);
      at += length;
      return text;
    }

    long readVarLong() {
      long zigzag = 0;
      int shift = 0;
      byte b;
      do {
        b = bytes[at++];
        zigzag |= (long) (b & 0x7F) << shift;
        shift += 7;
      } while (b < 0);
      return (zigzag >>> 1) ^ -(zigzag & 1);
    }

    long readFixed(int count) {
      long bits = 0;
      for (int i = 0; i < count; i++) {
        bits |= (bytes[at++] & 0xFFL) << (8 * i);
      }
      return bits;
    }
  }

  /**
   * Writes the fields of a struct of {@code schema}.
   *
   * @return false when a value is of a type this codec does not know (the row stays an object)
   */
  static boolean writeStruct(Sink out, Struct struct, Schema schema) {
    for (Field field : schema.fields()) {
      if (!writeValue(out, struct.get(field), field.schema())) {
        return false;
      }
    }
    return true;
  }

  /** Reads the fields of a struct of {@code schema} into a new struct. */
  static Struct readStruct(Source in, Schema schema) {
    Struct struct = new Struct(schema);
    for (Field field : schema.fields()) {
      Object value = readValue(in, field.schema());
      if (value != null) {
        // Unnamed: for a named field Connect formats an error location on every put.
        struct.put(new Field(null, field.index(), field.schema()), value);
      }
    }
    return struct;
  }

  private static boolean writeValue(Sink out, Object value, Schema schema) {
    if (value == null) {
      out.write(0);
      return true;
    }
    out.write(1);
    String logical = schema.name();
    if (logical != null && logical.startsWith(CONNECT_LOGICAL)) {
      return writeLogical(out, value, logical);
    }
    switch (schema.type()) {
      case INT8, INT16, INT32, INT64:
        return writeInteger(out, value, schema.type());
      case FLOAT32:
        if (value instanceof Float f) {
          out.writeFixed(Float.floatToRawIntBits(f), 4);
          return true;
        }
        return false;
      case FLOAT64:
        if (value instanceof Double d) {
          out.writeFixed(Double.doubleToRawLongBits(d), 8);
          return true;
        }
        return false;
      case BOOLEAN:
        if (value instanceof Boolean b) {
          out.write(b ? 1 : 0);
          return true;
        }
        return false;
      case STRING:
        if (value instanceof String text) {
          out.write(text.getBytes(StandardCharsets.UTF_8));
          return true;
        }
        return false;
      case BYTES:
        return writeBytes(out, value);
      default:
        return writeContainer(out, value, schema);
    }
  }

  private static boolean writeContainer(Sink out, Object value, Schema schema) {
    if (value instanceof Struct struct && schema.type() == Schema.Type.STRUCT) {
      return (struct.schema() == schema || struct.schema().equals(schema))
          && writeStruct(out, struct, schema);
    } else if (value instanceof List<?> list && schema.type() == Schema.Type.ARRAY) {
      return writeList(out, list, schema.valueSchema());
    } else if (value instanceof Map<?, ?> map && schema.type() == Schema.Type.MAP) {
      return writeMap(out, map, schema);
    }
    return false;
  }

  /** Connect's Decimal as scale and unscaled bytes; its Timestamp, Date and Time as millis. */
  private static boolean writeLogical(Sink out, Object value, String logical) {
    if (Decimal.LOGICAL_NAME.equals(logical)) {
      if (value instanceof BigDecimal decimal) {
        out.writeVarLong(decimal.scale());
        out.write(decimal.unscaledValue().toByteArray());
        return true;
      }
      return false;
    }
    if (DATES.contains(logical) && value instanceof java.util.Date date) {
      out.writeVarLong(date.getTime());
      return true;
    }
    return false;
  }

  /** An integer of exactly its schema's Java type, so it reads back as the same type. */
  private static boolean writeInteger(Sink out, Object value, Schema.Type type) {
    boolean exact =
        switch (type) {
          case INT8 -> value instanceof Byte;
          case INT16 -> value instanceof Short;
          case INT32 -> value instanceof Integer;
          default -> value instanceof Long;
        };
    if (exact) {
      out.writeVarLong(((Number) value).longValue());
    }
    return exact;
  }

  private static boolean writeBytes(Sink out, Object value) {
    if (value instanceof byte[] bytes) {
      out.write(bytes);
      return true;
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer view = buffer.duplicate();
      byte[] bytes = new byte[view.remaining()];
      view.get(bytes);
      out.write(bytes);
      return true;
    }
    return false;
  }

  private static boolean writeList(Sink out, List<?> list, Schema element) {
    out.writeVarLong(list.size());
    for (Object item : list) {
      if (!writeValue(out, item, element)) {
        return false;
      }
    }
    return true;
  }

  private static boolean writeMap(Sink out, Map<?, ?> map, Schema schema) {
    out.writeVarLong(map.size());
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!writeValue(out, entry.getKey(), schema.keySchema())
          || !writeValue(out, entry.getValue(), schema.valueSchema())) {
        return false;
      }
    }
    return true;
  }

  private static Object readValue(Source in, Schema schema) {
    if (in.read() == 0) {
      return null;
    }
    String logical = schema.name();
    if (logical != null && logical.startsWith(CONNECT_LOGICAL)) {
      if (Decimal.LOGICAL_NAME.equals(logical)) {
        int scale = (int) in.readVarLong();
        return new BigDecimal(new BigInteger(in.readBytes()), scale);
      }
      return new java.util.Date(in.readVarLong()); // Timestamp, Date, Time
    }
    return switch (schema.type()) {
      case INT8 -> (byte) in.readVarLong();
      case INT16 -> (short) in.readVarLong();
      case INT32 -> (int) in.readVarLong();
      case INT64 -> in.readVarLong();
      case FLOAT32 -> Float.intBitsToFloat((int) in.readFixed(4));
      case FLOAT64 -> Double.longBitsToDouble(in.readFixed(8));
      case BOOLEAN -> in.read() != 0;
      case STRING -> in.readString();
      case BYTES -> in.readBytes();
      case STRUCT -> readStruct(in, schema);
      case ARRAY -> readList(in, schema.valueSchema());
      case MAP -> readMap(in, schema);
    };
  }

  private static List<Object> readList(Source in, Schema element) {
    int size = (int) in.readVarLong();
    List<Object> list = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      list.add(readValue(in, element));
    }
    return list;
  }

  private static Map<Object, Object> readMap(Source in, Schema schema) {
    int size = (int) in.readVarLong();
    Map<Object, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < size; i++) {
      Object key = readValue(in, schema.keySchema());
      map.put(key, readValue(in, schema.valueSchema()));
    }
    return map;
  }
}
