package io.skippr.connect.lake.format;

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

  /**
   * Counts and buffers what Parquet writes. Parquet writes page headers and the footer a few bytes
   * at a time (thrift writes single bytes), which unbuffered would each reach the caller's stream
   * (a system call, a digest update); a plain array here also avoids BufferedOutputStream's lock
   * per call.
   */
  private static final class CountingStream extends PositionOutputStream {
    private static final int BUFFER_BYTES = 64 << 10;

    private final OutputStream out;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private int buffered;
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
      if (buffered == buffer.length) {
        drain();
      }
      buffer[buffered++] = (byte) b;
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > buffer.length - buffered) {
        drain();
      }
      if (len >= buffer.length) {
        out.write(b, off, len);
      } else {
        System.arraycopy(b, off, buffer, buffered, len);
        buffered += len;
      }
      position += len;
    }

    private void drain() throws IOException {
      if (buffered > 0) {
        out.write(buffer, 0, buffered);
        buffered = 0;
      }
    }

    @Override
    public void flush() throws IOException {
      drain();
      out.flush();
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
