package io.skippr.connect.lake.maintenance;

import com.github.luben.zstd.Zstd;
import io.skippr.connect.lake.format.ParquetCodecs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The codecs the lake's files are written with, for reading them back without Hadoop: snappy, zstd,
 * gzip and none. Compressors are the writer's own.
 */
final class ParquetDecompressors implements CompressionCodecFactory {
  private final ParquetCodecs compressors = new ParquetCodecs();

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return compressors.getCompressor(codec);
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    return switch (codec) {
      case UNCOMPRESSED, SNAPPY, ZSTD, GZIP -> new Decompressor(codec);
      default -> throw new IllegalArgumentException("cannot read Parquet pages in " + codec);
    };
  }

  @Override
  public void release() {
    compressors.release();
  }

  /** Decompresses whole pages into arrays. */
  private static final class Decompressor implements BytesInputDecompressor {
    private final CompressionCodecName codec;

    Decompressor(CompressionCodecName codec) {
      this.codec = codec;
    }

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      return BytesInput.from(decompress(bytes.toByteArray(), uncompressedSize));
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int size)
        throws IOException {
      byte[] in = new byte[compressedSize];
      input.get(in);
      output.put(decompress(in, size));
    }

    private byte[] decompress(byte[] in, int size) throws IOException {
      switch (codec) {
        case UNCOMPRESSED:
          return in;
        case SNAPPY:
          {
            byte[] out = new byte[size];
            int n = Snappy.uncompress(in, 0, in.length, out, 0);
            return check(n, size, out);
          }
        case ZSTD:
          {
            byte[] out = new byte[size];
            long n = Zstd.decompressByteArray(out, 0, size, in, 0, in.length);
            if (Zstd.isError(n)) {
              throw new IOException("zstd: " + Zstd.getErrorName(n));
            }
            return check((int) n, size, out);
          }
        case GZIP:
          try (InputStream gzip = new GZIPInputStream(new java.io.ByteArrayInputStream(in))) {
            byte[] out = gzip.readNBytes(size);
            return check(out.length, size, out);
          }
        default:
          throw new IOException("cannot read Parquet pages in " + codec);
      }
    }

    private byte[] check(int got, int size, byte[] out) throws IOException {
      if (got != size) {
        throw new IOException(
            "a " + codec + " page held " + got + " bytes, its header says " + size);
      }
      return out;
    }

    @Override
    public void release() {}
  }
}
