package io.skippr.connect.sink.bench;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.ParquetSchemas;
import io.skippr.connect.lake.format.ParquetCodecs;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.format.StreamOutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;

/**
 * parquet-java's own example writer over its simple record model: the ceiling a sink is compared
 * with. Rows are turned into groups before any clock starts (strings already UTF-8), so only
 * Parquet's encoding, compression and output are measured.
 */
public final class CeilingWriter {
  private final Schema schema;
  private final MessageType type;
  private final SimpleGroupFactory factory;
  private final FormatConfig.Codec codec;

  public CeilingWriter(Schema schema, FormatConfig.Codec codec) {
    this.schema = schema;
    this.type = ParquetSchemas.toMessageType(schema);
    this.factory = new SimpleGroupFactory(type);
    this.codec = codec;
  }

  /** The rows as groups of this writer's message type. */
  public List<Group> groups(List<Struct> rows) {
    List<Group> groups = new ArrayList<>(rows.size());
    for (Struct row : rows) {
      Group group = factory.newGroup();
      fill(group, row);
      groups.add(group);
    }
    return groups;
  }

  /** Opens a file writer over {@code out}, with the sink's codec, row group size and encodings. */
  public ParquetWriter<Group> open(OutputStream out) throws IOException {
    return ExampleParquetWriter.builder(new StreamOutputFile(out))
        .withType(type)
        .withConf(new PlainParquetConfiguration())
        .withCodecFactory(new ParquetCodecs())
        .withCompressionCodec(ParquetFileWriter.codecName(codec))
        .withRowGroupSize(FormatConfig.DEFAULT_ROW_GROUP_BYTES)
        .withDictionaryEncoding(true)
        .withValidation(false)
        .build();
  }

  public Schema schema() {
    return schema;
  }

  private static void fill(Group group, Struct struct) {
    for (Field field : struct.schema().fields()) {
      Object value = struct.get(field);
      if (value == null) {
        continue;
      }
      Schema fieldSchema = field.schema();
      String name = field.name();
      if (Decimal.LOGICAL_NAME.equals(fieldSchema.name())) {
        long unscaled = ((BigDecimal) value).unscaledValue().longValueExact();
        if (ParquetSchemas.decimalPrecision(fieldSchema) <= 9) {
          group.append(name, (int) unscaled);
        } else {
          group.append(name, unscaled);
        }
      } else if (Timestamp.LOGICAL_NAME.equals(fieldSchema.name())) {
        group.append(name, ((java.util.Date) value).getTime());
      } else {
        appendPlain(group, name, fieldSchema, value);
      }
    }
  }

  private static void appendPlain(Group group, String name, Schema fieldSchema, Object value) {
    switch (fieldSchema.type()) {
      case STRUCT:
        fill(group.addGroup(name), (Struct) value);
        break;
      case INT8:
      case INT16:
      case INT32:
        group.append(name, ((Number) value).intValue());
        break;
      case INT64:
        group.append(name, ((Number) value).longValue());
        break;
      case FLOAT32:
        group.append(name, ((Number) value).floatValue());
        break;
      case FLOAT64:
        group.append(name, ((Number) value).doubleValue());
        break;
      case BOOLEAN:
        group.append(name, (Boolean) value);
        break;
      case STRING:
        group.append(name, (String) value);
        break;
      default:
        throw new IllegalArgumentException("the ceiling writer has no mapping for " + name);
    }
  }
}
