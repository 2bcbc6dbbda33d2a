package io.skippr.connect.lake.format;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** Writes the rows of one table partition path of one compaction unit as one complete file. */
public interface LakeFileWriter {

  /**
   * Writes {@code rows} as one file to {@code out} (which it does not close).
   *
   * <p>Every row's own schema must widen to {@code fileSchema} (see {@code SchemaWidening}): fields
   * are matched by name, a field the row lacks is written as null, and integers widen to long and
   * double. The output depends only on the inputs, so a replay writes the same bytes.
   */
  void write(Schema fileSchema, List<Struct> rows, OutputStream out) throws IOException;

  /** File name suffix after the compaction id, e.g. {@code snappy.parquet}. */
  String extension();
}
