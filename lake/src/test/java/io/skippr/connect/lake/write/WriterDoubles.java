package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.WallClock;
import io.skippr.connect.lake.convert.LakeRow;
import io.skippr.connect.lake.convert.RecordRejectedException;
import io.skippr.connect.lake.convert.RowConverter;
import io.skippr.connect.lake.format.LakeFileWriter;
import io.skippr.connect.lake.partition.Partitioner;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/** Small stand-ins for the format, partitioning and schema parts, so writer tests stay fast. */
final class WriterDoubles {
  /** Value schema of test records: the position, a partition path value, a size estimate. */
  static final Schema VALUE = valueSchema(Schema.STRING_SCHEMA, false);

  /** {@link #VALUE} plus an optional field: widenable. */
  static final Schema WIDER = valueSchema(Schema.STRING_SCHEMA, true);

  /** {@link #VALUE} with {@code bucket} as a number: cannot share a file with {@link #VALUE}. */
  static final Schema CLASHING = valueSchema(Schema.INT32_SCHEMA, false);

  private WriterDoubles() {}

  private static Schema valueSchema(Schema bucket, boolean extra) {
    SchemaBuilder builder =
        SchemaBuilder.struct()
            .name("Value")
            .field("partition", Schema.INT32_SCHEMA)
            .field("offset", Schema.INT64_SCHEMA)
            .field("bucket", bucket)
            .field("size", Schema.INT64_SCHEMA)
            .field("reject", Schema.OPTIONAL_BOOLEAN_SCHEMA);
    if (extra) {
      builder.field("extra", Schema.OPTIONAL_STRING_SCHEMA);
    }
    return builder.build();
  }

  static Struct value(int partition, long offset, String bucket, long size) {
    return value(VALUE, partition, offset, bucket, size);
  }

  static Struct value(Schema schema, int partition, long offset, Object bucket, long size) {
    return new Struct(schema)
        .put("partition", partition)
        .put("offset", offset)
        .put("bucket", bucket)
        .put("size", size);
  }

  /** The value struct is the row; the table is the (post-transform) topic. */
  static final class StructConverter implements RowConverter {
    @Override
    public LakeRow convert(SinkRecord record) {
      if (record.value() == null) {
        return null;
      }
      Struct value = (Struct) record.value();
      if (Boolean.TRUE.equals(value.get("reject"))) {
        throw new RecordRejectedException("rejected on purpose");
      }
      return new LakeRow(record.topic(), value, value.getInt64("size"));
    }
  }

  /** {@code p={bucket}}; bucket {@code wc} means the unit's wall clock, {@code missing} rejects. */
  static final class PathPartitioner implements Partitioner {
    @Override
    public String partitionPath(SinkRecord record, Struct row, long unitWallclockMs) {
      Object bucket = row.get("bucket");
      if ("wc".equals(bucket)) {
        return "wc=" + unitWallclockMs;
      }
      if ("missing".equals(bucket)) {
        throw new RecordRejectedException("no partition value");
      }
      return "p=" + bucket;
    }
  }

  /** Writes each row's offset as a line of text. */
  static final class OffsetsFileWriter implements LakeFileWriter {
    @Override
    public void write(Schema fileSchema, List<Struct> rows, OutputStream out) throws IOException {
      for (Struct row : rows) {
        out.write((row.get("offset") + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }

    @Override
    public String extension() {
      return "txt";
    }
  }

  /** A wall clock the test moves. */
  static final class ManualClock implements WallClock {
    long now;

    ManualClock(long now) {
      this.now = now;
    }

    @Override
    public long millis() {
      return now;
    }
  }
}
