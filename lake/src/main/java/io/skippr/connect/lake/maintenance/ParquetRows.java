package io.skippr.connect.lake.maintenance;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.util.HashMap;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetMetricsCallback;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a Parquet file's rows as Parquet records, without Hadoop. parquet-java's read options
 * builder always creates its Hadoop codec factory, which needs Hadoop's classes; the plugin ships
 * none (files are written without Hadoop too), so the options are made with the lake's own codecs
 * through their constructor. A parquet-java release that changes it fails the unit tests.
 */
final class ParquetRows implements AutoCloseable {
  private static final Constructor<ParquetReadOptions> OPTIONS = optionsConstructor();

  private final ParquetFileReader reader;
  private final MessageType schema;
  private final MessageColumnIO columns;
  private RecordReader<Group> rowGroup;
  private long left;

  ParquetRows(InputFile file, CompressionCodecFactory codecs) throws IOException {
    this.reader = ParquetFileReader.open(file, options(codecs));
    this.schema = reader.getFooter().getFileMetaData().getSchema();
    this.columns = new ColumnIOFactory().getColumnIO(schema);
  }

  MessageType schema() {
    return schema;
  }

  /** The next row, or null after the last. */
  Group next() throws IOException {
    while (left == 0) {
      PageReadStore pages = reader.readNextRowGroup();
      if (pages == null) {
        return null;
      }
      rowGroup = columns.getRecordReader(pages, new GroupRecordConverter(schema));
      left = pages.getRowCount();
    }
    left--;
    return rowGroup.read();
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }

  private static ParquetReadOptions options(CompressionCodecFactory codecs) throws IOException {
    try {
      return OPTIONS.newInstance(
          false, // signed string min/max: no filtering is done
          false, // statistics filter
          false, // dictionary filter
          false, // record filter
          false, // column index filter
          false, // page checksum verification
          false, // bloom filter
          false, // off-heap decrypt buffer
          false, // Hadoop vectored IO
          FilterCompat.NOOP,
          ParquetMetadataConverter.NO_FILTER,
          codecs,
          new HeapByteBufferAllocator(),
          8 << 20,
          new HashMap<String, String>(),
          null,
          null,
          new PlainParquetConfiguration());
    } catch (ReflectiveOperationException e) {
      throw new IOException("cannot set up reading Parquet without Hadoop: " + e, e);
    }
  }

  private static Constructor<ParquetReadOptions> optionsConstructor() {
    try {
      Constructor<ParquetReadOptions> constructor =
          ParquetReadOptions.class.getDeclaredConstructor(
              boolean.class,
              boolean.class,
              boolean.class,
              boolean.class,
              boolean.class,
              boolean.class,
              boolean.class,
              boolean.class,
              boolean.class,
              FilterCompat.Filter.class,
              ParquetMetadataConverter.MetadataFilter.class,
              CompressionCodecFactory.class,
              ByteBufferAllocator.class,
              int.class,
              Map.class,
              FileDecryptionProperties.class,
              ParquetMetricsCallback.class,
              ParquetConfiguration.class);
      constructor.setAccessible(true);
      return constructor;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          "this parquet-java has no ParquetReadOptions constructor the lake's compaction knows", e);
    }
  }
}
