package io.skippr.connect.sink.format;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over a caller's stream, so local files and object uploads share one
 * writer. Closing the Parquet writer flushes but never closes the caller's stream.
 */
public final class StreamOutputFile implements OutputFile {
  private final OutputStream out;

  public StreamOutputFile(OutputStream out) {
    this.out = out;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    return new CountingStream(out);
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return new CountingStream(out);
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return "stream";
  }

  private static final class CountingStream extends PositionOutputStream {
    private final OutputStream out;
    private long position;

    CountingStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      position += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.flush();
    }
  }
}
