package io.skippr.connect.lake.format;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.ParquetSchemas;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows as one Parquet file with parquet-java, without Hadoop: its own output file over the
 * caller's stream and its own codecs; which columns get a dictionary is decided from the rows
 * ({@link DictionaryPlan}). Nothing time- or random-dependent goes into the file, so the same rows
 * always give the same bytes. Stateless between calls; safe to share across threads.
 */
public final class ParquetFileWriter implements LakeFileWriter {
  private final FormatConfig config;
  private final CompressionCodecName codec;
  private final String extension;

  /** The last file schema and its Parquet type: a unit's files, unit after unit, share one. */
  private volatile FileType last;

  private record FileType(Schema schema, MessageType messageType) {}

  public ParquetFileWriter(FormatConfig config) {
    this.config = config;
    this.codec = codecName(config.codec());
    this.extension = config.codec().configName() + ".parquet";
  }

  @Override
  public void write(Schema fileSchema, List<Struct> rows, OutputStream out) throws IOException {
    MessageType messageType = messageType(fileSchema);
    StructWriteSupport support = new StructWriteSupport(fileSchema, messageType);
    ParquetCodecs codecs = new ParquetCodecs();
    Builder builder =
        new Builder(new StreamOutputFile(out), support)
            .withConf(new PlainParquetConfiguration())
            .withCodecFactory(codecs)
            .withCompressionCodec(codec)
            .withRowGroupSize(config.rowGroupBytes())
            .withDictionaryEncoding(true)
            .withDictionaryPageSize(DictionaryPlan.PAGE_BYTES)
            .withValidation(false);
    DictionaryPlan.decide(fileSchema, rows).forEach(builder::withDictionaryEncoding);
    try (ParquetWriter<Struct> writer = builder.build()) {
      for (int i = 0, n = rows.size(); i < n; i++) {
        writer.write(rows.get(i));
      }
    } finally {
      codecs.release(); // frees the zstd context now, not at garbage collection
    }
  }

  private MessageType messageType(Schema fileSchema) {
    FileType known = last;
    if (known != null && known.schema() == fileSchema) {
      return known.messageType();
    }
    MessageType messageType = ParquetSchemas.toMessageType(fileSchema);
    last = new FileType(fileSchema, messageType);
    return messageType;
  }

  @Override
  public String extension() {
    return extension;
  }

  /** The parquet-java codec of a configured codec. */
  public static CompressionCodecName codecName(FormatConfig.Codec codec) {
    switch (codec) {
      case SNAPPY:
        return CompressionCodecName.SNAPPY;
      case ZSTD:
        return CompressionCodecName.ZSTD;
      case GZIP:
        return CompressionCodecName.GZIP;
      case NONE:
        return CompressionCodecName.UNCOMPRESSED;
      default:
        throw new IllegalArgumentException("unknown codec " + codec);
    }
  }

  private static final class Builder extends ParquetWriter.Builder<Struct, Builder> {
    private final StructWriteSupport support;

    Builder(OutputFile file, StructWriteSupport support) {
      super(file);
      this.support = support;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Struct> getWriteSupport(Configuration conf) {
      return support;
    }

    @Override
    protected WriteSupport<Struct> getWriteSupport(ParquetConfiguration conf) {
      return support;
    }
  }
}
