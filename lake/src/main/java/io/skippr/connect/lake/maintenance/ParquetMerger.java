package io.skippr.connect.lake.maintenance;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.format.StreamOutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
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

  /** What a merge wrote: how many rows, in which schema. */
  record Merged(long rows, MessageType schema) {}

  private final FormatConfig format;

  ParquetMerger(FormatConfig format) {
    this.format = format;
  }

  /**
   * Writes the inputs' rows to {@code out} (which it does not close).
   *
   * @throws IOException when an input cannot be read or its schema differs from the first's
   */
  Merged merge(List<Input> inputs, OutputStream out) throws IOException {
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
    return new Merged(rows, schema);
  }

  /**
   * Writes the current state of the inputs' rows: per key its last row, in input order, and none
   * for a key whose last row deletes it ({@code __deleted} true, or {@code op} {@code d}). Inputs
   * of different schemas (a table's files change schema as it evolves; a unit of tombstones only
   * has the key columns) are written in the schema every one widens to.
   *
   * @param keyFields the top-level fields forming the key
   * @param keepDeletes whether a key's last row is written even when it deletes the key (an older
   *     file outside the merge may hold the key)
   * @throws IOException when an input cannot be read or the inputs' schemas do not merge
   */
  Merged mergeByKey(
      List<Input> inputs, OutputStream out, List<String> keyFields, boolean keepDeletes)
      throws IOException {
    ParquetDecompressors codecs = new ParquetDecompressors();
    Map<String, long[]> last = new HashMap<>();
    List<MessageType> schemas = new ArrayList<>();
    try {
      for (int i = 0; i < inputs.size(); i++) {
        try (ParquetRows file = new ParquetRows(new BytesInputFile(inputs.get(i).read()), codecs)) {
          RowKeys.check(file.schema(), keyFields);
          schemas.add(file.schema());
          long row = 0;
          for (Group group = file.next(); group != null; group = file.next(), row++) {
            last.put(RowKeys.of(group, keyFields), new long[] {i, row});
          }
        }
      }
      MessageType schema = schemas.get(0);
      for (MessageType next : schemas) {
        MessageType union = next.equals(schema) ? schema : RowWidening.union(schema, next);
        if (union == null) {
          throw new IOException(
              "the merge inputs' schemas do not merge: " + schema + " and " + next);
        }
        schema = union;
      }
      long written = 0;
      ParquetWriter<Group> writer = writer(schema, out, codecs);
      try {
        for (int i = 0; i < inputs.size(); i++) {
          boolean widen = !schemas.get(i).equals(schema);
          try (ParquetRows file =
              new ParquetRows(new BytesInputFile(inputs.get(i).read()), codecs)) {
            long row = 0;
            for (Group group = file.next(); group != null; group = file.next(), row++) {
              long[] newest = last.get(RowKeys.of(group, keyFields));
              if (newest[0] == i && newest[1] == row && (keepDeletes || !RowKeys.deletes(group))) {
                writer.write(widen ? RowWidening.widen(group, schema) : group);
                written++;
              }
            }
          }
        }
      } finally {
        writer.close();
      }
      return new Merged(written, schema);
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
