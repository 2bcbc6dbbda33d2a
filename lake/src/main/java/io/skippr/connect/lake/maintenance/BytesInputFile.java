package io.skippr.connect.lake.maintenance;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A Parquet file read from storage into memory (merge inputs are small by definition). */
final class BytesInputFile implements InputFile {
  private final byte[] bytes;

  BytesInputFile(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public long getLength() {
    return bytes.length;
  }

  @Override
  public SeekableInputStream newStream() {
    Positioned in = new Positioned(bytes);
    return new DelegatingSeekableInputStream(in) {
      @Override
      public long getPos() {
        return in.position();
      }

      @Override
      public void seek(long newPos) throws IOException {
        if (newPos < 0 || newPos > bytes.length) {
          throw new IOException("seek to " + newPos + " outside a file of " + bytes.length);
        }
        in.seek((int) newPos);
      }
    };
  }

  /** A byte array stream that tells and sets its position. */
  private static final class Positioned extends ByteArrayInputStream {
    Positioned(byte[] bytes) {
      super(bytes);
    }

    long position() {
      return pos;
    }

    void seek(int position) {
      pos = position;
      mark = position;
    }
  }
}
