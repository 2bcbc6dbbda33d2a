package io.skippr.connect.sink.maintenance;

import io.skippr.connect.sink.convert.FormatConfig;
import io.skippr.connect.sink.format.ParquetFileWriter;
import io.skippr.connect.sink.format.StreamOutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;

/**
 * Copies the rows of Parquet files of one schema, in order, into one file written with the sink's
 * codec and row group size. Rows pass as Parquet records (no conversion to Connect and back), so
 * every column keeps its type; the output depends only on the inputs and the settings.
 */
final class ParquetMerger {
  /** The rows of one input file, read one at a time. */
  interface Input {
    byte[] read() throws IOException;
  }

  private final FormatConfig format;

  ParquetMerger(FormatConfig format) {
    this.format = format;
  }

  /**
   * Writes the inputs' rows to {@code out} (which it does not close).
   *
   * @return how many rows were written
   * @throws IOException when an input cannot be read or its schema differs from the first's
   */
  long merge(List<Input> inputs, OutputStream out) throws IOException {
    ParquetDecompressors codecs = new ParquetDecompressors();
    long rows = 0;
    ParquetWriter<Group> writer = null;
    MessageType schema = null;
    try {
      for (Input input : inputs) {
        try (ParquetRows file = new ParquetRows(new BytesInputFile(input.read()), codecs)) {
          if (schema == null) {
            schema = file.schema();
            writer = writer(schema, out, codecs);
          } else if (!schema.equals(file.schema())) {
            throw new IOException(
                "a merge input has another schema than the first: " + file.schema());
          }
          for (Group row = file.next(); row != null; row = file.next()) {
            writer.write(row);
            rows++;
          }
        }
      }
    } finally {
      try {
        if (writer != null) {
          writer.close();
        }
      } finally {
        codecs.release();
      }
    }
    return rows;
  }

  /**
   * Writes the current state of the inputs' rows: per key the last row, in input order, unless it
   * deletes the key ({@code __deleted} true, or {@code op} {@code d}) and {@code keepDeletes} says
   * its input's markers are past retention.
   *
   * @param keyFields the top-level fields forming the key
   * @param keepDeletes per input (by index), whether its delete markers are kept
   * @return how many rows were written
   */
  long mergeByKey(
      List<Input> inputs, OutputStream out, List<String> keyFields, List<Boolean> keepDeletes)
      throws IOException {
    ParquetDecompressors codecs = new ParquetDecompressors();
    Map<String, long[]> last = new HashMap<>();
    MessageType schema = null;
    try {
      for (int i = 0; i < inputs.size(); i++) {
        try (ParquetRows file = new ParquetRows(new BytesInputFile(inputs.get(i).read()), codecs)) {
          if (schema == null) {
            schema = file.schema();
            RowKeys.check(schema, keyFields);
          } else if (!schema.equals(file.schema())) {
            throw new IOException(
                "a merge input has another schema than the first: " + file.schema());
          }
          long row = 0;
          for (Group group = file.next(); group != null; group = file.next(), row++) {
            last.put(RowKeys.of(group, keyFields), new long[] {i, row});
          }
        }
      }
      long written = 0;
      ParquetWriter<Group> writer = writer(schema, out, codecs);
      try {
        for (int i = 0; i < inputs.size(); i++) {
          try (ParquetRows file =
              new ParquetRows(new BytesInputFile(inputs.get(i).read()), codecs)) {
            long row = 0;
            for (Group group = file.next(); group != null; group = file.next(), row++) {
              long[] newest = last.get(RowKeys.of(group, keyFields));
              if (newest[0] == i
                  && newest[1] == row
                  && (keepDeletes.get(i) || !RowKeys.deletes(group))) {
                writer.write(group);
                written++;
              }
            }
          }
        }
      } finally {
        writer.close();
      }
      return written;
    } finally {
      codecs.release();
    }
  }

  private ParquetWriter<Group> writer(
      MessageType schema, OutputStream out, ParquetDecompressors codecs) throws IOException {
    return ExampleParquetWriter.builder(new StreamOutputFile(out))
        .withType(schema)
        .withConf(new PlainParquetConfiguration())
        .withCodecFactory(codecs)
        .withCompressionCodec(ParquetFileWriter.codecName(format.codec()))
        .withRowGroupSize(format.rowGroupBytes())
        .withDictionaryEncoding(true)
        .withValidation(false)
        .build();
  }
}
