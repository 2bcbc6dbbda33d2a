package io.skippr.connect.sink.bench;

import io.skippr.connect.lake.bench.BenchRows;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.kafka.connect.data.Struct;

/**
 * What Parquet holds on top of the rows while it writes one file: the heap (after full collections)
 * at the moment the row group starts reaching the stream, when every encoded page of the file is
 * still buffered, minus the heap before the file was begun (rows already held).
 */
final class WriterTransientProbe {
  private WriterTransientProbe() {}

  /** Bytes the writer holds at its peak for one file of {@code rows} bench rows. */
  static long measure(int rows, int regions) throws IOException {
    List<Struct> structs = BenchRows.rows(0, rows, regions);
    long before = HeapSampler.settledHeap();
    long[] atFirstWrite = {-1};
    OutputStream probe =
        new OutputStream() {
          @Override
          public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            if (atFirstWrite[0] < 0) {
              atFirstWrite[0] = HeapSampler.settledHeap();
            }
          }
        };
    FormatConfig config =
        new FormatConfig(
            FormatConfig.Codec.SNAPPY,
            FormatConfig.DEFAULT_ROW_GROUP_BYTES,
            false,
            false,
            FormatConfig.NullValues.IGNORE,
            "${topic}");
    new ParquetFileWriter(config).write(BenchRows.ROW, structs, probe);
    if (structs.isEmpty()) {
      throw new IllegalStateException("no rows");
    }
    return atFirstWrite[0] - before;
  }
}
