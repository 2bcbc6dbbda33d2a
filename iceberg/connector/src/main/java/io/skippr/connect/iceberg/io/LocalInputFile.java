package io.skippr.connect.iceberg.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/** A local file to read, seekable through its channel. */
final class LocalInputFile implements InputFile {
  private final String location;
  private final Path path;
  private long length = -1;

  LocalInputFile(String location, Path path) {
    this.location = location;
    this.path = path;
  }

  LocalInputFile(String location, Path path, long length) {
    this(location, path);
    this.length = length;
  }

  @Override
  public long getLength() {
    if (length < 0) {
      try {
        length = Files.size(path);
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "file does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the size of " + location, e);
      }
    }
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    try {
      return new ChannelStream(FileChannel.open(path, StandardOpenOption.READ));
    } catch (NoSuchFileException e) {
      throw new NotFoundException(e, "file does not exist: %s", location);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + location, e);
    }
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public boolean exists() {
    return Files.isRegularFile(path);
  }

  private static final class ChannelStream extends SeekableInputStream {
    private final FileChannel channel;

    ChannelStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() throws IOException {
      return channel.position();
    }

    @Override
    public void seek(long newPos) throws IOException {
      channel.position(newPos);
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return channel.read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
