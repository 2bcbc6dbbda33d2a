package io.skippr.connect.lake.format;

import io.skippr.connect.lake.convert.ParquetSchemas;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/** Writers for the leaf types. */
final class PrimitiveWriters {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private PrimitiveWriters() {}

  static ValueWriter forSchema(Schema schema, String path) {
    String logical = schema.name();
    if (Timestamp.LOGICAL_NAME.equals(logical)) {
      return (consumer, value) -> consumer.addLong(((java.util.Date) value).getTime());
    } else if (Date.LOGICAL_NAME.equals(logical)) {
      return (consumer, value) ->
          consumer.addInteger(
              (int) Math.floorDiv(((java.util.Date) value).getTime(), MILLIS_PER_DAY));
    } else if (Time.LOGICAL_NAME.equals(logical)) {
      return new TimeWriter(path);
    } else if (Decimal.LOGICAL_NAME.equals(logical)) {
      return new DecimalWriter(
          ParquetSchemas.decimalPrecision(schema), ParquetSchemas.decimalScale(schema), path);
    }
    switch (schema.type()) {
      case INT8:
      case INT16:
      case INT32:
        // Numbers go through Number, so narrower row values widen to the file's type.
        return (consumer, value) -> consumer.addInteger(((Number) value).intValue());
      case INT64:
        return (consumer, value) -> consumer.addLong(((Number) value).longValue());
      case FLOAT32:
        return (consumer, value) -> consumer.addFloat(((Number) value).floatValue());
      case FLOAT64:
        return (consumer, value) -> consumer.addDouble(((Number) value).doubleValue());
      case BOOLEAN:
        return (consumer, value) -> consumer.addBoolean((Boolean) value);
      case STRING:
        // Array-backed: Parquet compares, hashes and copies these faster than fromString's buffers.
        return (consumer, value) ->
            consumer.addBinary(
                Binary.fromConstantByteArray(((String) value).getBytes(StandardCharsets.UTF_8)));
      case BYTES:
        return PrimitiveWriters::writeBytes;
      default:
        throw new DataException("field " + path + ": unsupported type " + schema.type());
    }
  }

  private static void writeBytes(RecordConsumer consumer, Object value) {
    if (value instanceof byte[] bytes) {
      consumer.addBinary(Binary.fromConstantByteArray(bytes));
    } else {
      consumer.addBinary(Binary.fromConstantByteBuffer(((ByteBuffer) value).duplicate()));
    }
  }

  static final class TimeWriter implements ValueWriter {
    private final String path;

    TimeWriter(String path) {
      this.path = path;
    }

    @Override
    public void write(RecordConsumer consumer, Object value) {
      long millis = ((java.util.Date) value).getTime();
      if (millis < 0 || millis >= MILLIS_PER_DAY) {
        throw new DataException(
            "field " + path + ": Time value " + millis + " ms is outside one day");
      }
      consumer.addInteger((int) millis);
    }
  }

  static final class DecimalWriter implements ValueWriter {
    private final int precision;
    private final int scale;
    private final String path;
    private final int fixedLength;

    DecimalWriter(int precision, int scale, String path) {
      this.precision = precision;
      this.scale = scale;
      this.path = path;
      this.fixedLength = precision > 18 ? ParquetSchemas.decimalBytes(precision) : 0;
    }

    @Override
    public void write(RecordConsumer consumer, Object value) {
      BigInteger unscaled = unscaled((BigDecimal) value);
      if (precision <= 9) {
        consumer.addInteger(unscaled.intValue());
      } else if (precision <= 18) {
        consumer.addLong(unscaled.longValue());
      } else {
        consumer.addBinary(Binary.fromConstantByteArray(fixed(unscaled)));
      }
    }

    private BigInteger unscaled(BigDecimal value) {
      BigDecimal scaled;
      try {
        scaled = value.scale() == scale ? value : value.setScale(scale, RoundingMode.UNNECESSARY);
      } catch (ArithmeticException e) {
        throw new DataException(
            "field " + path + ": " + value + " does not fit scale " + scale + " without rounding");
      }
      if (scaled.precision() > precision) {
        throw new DataException(
            "field " + path + ": " + value + " has more than " + precision + " digits");
      }
      return scaled.unscaledValue();
    }

    private byte[] fixed(BigInteger unscaled) {
      byte[] minimal = unscaled.toByteArray();
      byte[] out = new byte[fixedLength];
      byte pad = (byte) (unscaled.signum() < 0 ? -1 : 0);
      int offset = fixedLength - minimal.length;
      for (int i = 0; i < offset; i++) {
        out[i] = pad;
      }
      System.arraycopy(minimal, 0, out, offset, minimal.length);
      return out;
    }
  }
}
