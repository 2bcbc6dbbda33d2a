package io.skippr.connect.iceberg;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Reads a Parquet file's footer through Iceberg's FileIO: the last 8 bytes (footer length and
 * magic), then the footer, decoded by parquet-java's converter. parquet-java's own file reader
 * builds Hadoop codecs even for a footer, so it is not used: registration needs no Hadoop.
 */
final class FooterReader {
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final int TAIL = 8;

  private FooterReader() {}

  static ParquetMetadata read(InputFile file) throws IOException {
    long length = file.getLength();
    if (length < MAGIC.length + TAIL) {
      throw new IOException(file.location() + " is too short for a Parquet file");
    }
    try (SeekableInputStream in = file.newStream()) {
      byte[] tail = readAt(in, length - TAIL, TAIL);
      for (int i = 0; i < MAGIC.length; i++) {
        if (tail[4 + i] != MAGIC[i]) {
          throw new IOException(file.location() + " does not end like a Parquet file");
        }
      }
      int footerLength = ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      long start = length - TAIL - footerLength;
      if (footerLength <= 0 || start < MAGIC.length) {
        throw new IOException(file.location() + " has a footer of impossible length");
      }
      byte[] footer = readAt(in, start, footerLength);
      return new ParquetMetadataConverter()
          .readParquetMetadata(
              new ByteArrayInputStream(footer), ParquetMetadataConverter.NO_FILTER);
    }
  }

  private static byte[] readAt(SeekableInputStream in, long position, int length)
      throws IOException {
    in.seek(position);
    byte[] bytes = new byte[length];
    int read = 0;
    while (read < length) {
      int n = in.read(bytes, read, length - read);
      if (n < 0) {
        throw new IOException("unexpected end of file at " + (position + read));
      }
      read += n;
    }
    return bytes;
  }
}
