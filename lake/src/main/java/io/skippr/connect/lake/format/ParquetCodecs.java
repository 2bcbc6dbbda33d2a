package io.skippr.connect.lake.format;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Parquet page compressors over snappy-java, zstd-jni and the JDK's gzip, so no Hadoop codec class
 * is ever loaded. Write-only: the sink never reads Parquet. One instance per file; not thread-safe.
 * Each compressor reuses its output buffer: Parquet copies a compressed page before asking for the
 * next.
 */
public final class ParquetCodecs implements CompressionCodecFactory {
  public static final int ZSTD_LEVEL = 3;

  private BytesInputCompressor compressor;

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    if (compressor == null) {
      compressor = create(codec);
    } else if (compressor.getCodecName() != codec) {
      throw new IllegalStateException(
          "one codec per file, got " + codec + " after " + compressor.getCodecName());
    }
    return compressor;
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    throw new UnsupportedOperationException("the lake writer never decompresses");
  }

  @Override
  public void release() {
    if (compressor != null) {
      compressor.release();
      compressor = null;
    }
  }

  private static BytesInputCompressor create(CompressionCodecName codec) {
    switch (codec) {
      case UNCOMPRESSED:
        return new Uncompressed();
      case SNAPPY:
        return new SnappyCompressor();
      case ZSTD:
        return new ZstdCompressor();
      case GZIP:
        return new GzipCompressor();
      default:
        throw new IllegalArgumentException("unsupported Parquet codec " + codec);
    }
  }

  private static final class Uncompressed implements BytesInputCompressor {
    @Override
    public BytesInput compress(BytesInput bytes) {
      return bytes;
    }

    @Override
    public CompressionCodecName getCodecName() {
      return CompressionCodecName.UNCOMPRESSED;
    }

    @Override
    public void release() {}
  }

  private static final class SnappyCompressor implements BytesInputCompressor {
    private byte[] out = new byte[0];

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      byte[] in = bytes.toByteArray();
      int bound = Snappy.maxCompressedLength(in.length);
      if (out.length < bound) {
        out = new byte[bound];
      }
      int size = Snappy.compress(in, 0, in.length, out, 0);
      return BytesInput.from(out, 0, size);
    }

    @Override
    public CompressionCodecName getCodecName() {
      return CompressionCodecName.SNAPPY;
    }

    @Override
    public void release() {
      out = new byte[0];
    }
  }

  private static final class ZstdCompressor implements BytesInputCompressor {
    private final ZstdCompressCtx context = new ZstdCompressCtx().setLevel(ZSTD_LEVEL);
    private byte[] out = new byte[0];

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      byte[] in = bytes.toByteArray();
      int bound = (int) Zstd.compressBound(in.length);
      if (out.length < bound) {
        out = new byte[bound];
      }
      int size = context.compressByteArray(out, 0, out.length, in, 0, in.length);
      return BytesInput.from(out, 0, size);
    }

    @Override
    public CompressionCodecName getCodecName() {
      return CompressionCodecName.ZSTD;
    }

    @Override
    public void release() {
      context.close();
      out = new byte[0];
    }
  }

  private static final class GzipCompressor implements BytesInputCompressor {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      out.reset();
      // The JDK writes a fixed header (mtime 0), so the same page always compresses the same.
      try (GZIPOutputStream gzip = new GZIPOutputStream(out, 64 * 1024)) {
        bytes.writeAllTo(gzip);
      }
      return BytesInput.from(out);
    }

    @Override
    public CompressionCodecName getCodecName() {
      return CompressionCodecName.GZIP;
    }

    @Override
    public void release() {
      out.reset();
    }
  }
}
