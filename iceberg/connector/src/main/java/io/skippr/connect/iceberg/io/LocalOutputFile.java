package io.skippr.connect.iceberg.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * A local file to write: bytes go to a temporary file beside it, which becomes the file when the
 * stream closes (linked for {@link #create}, so an existing file is never replaced; moved for
 * {@link #createOrOverwrite}).
 */
final class LocalOutputFile implements OutputFile {
  private final String location;
  private final Path path;

  LocalOutputFile(String location, Path path) {
    this.location = location;
    this.path = path;
  }

  @Override
  public PositionOutputStream create() {
    if (Files.exists(path)) {
      throw new AlreadyExistsException("file already exists: %s", location);
    }
    return open(false);
  }

  @Override
  public PositionOutputStream createOrOverwrite() {
    return open(true);
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public InputFile toInputFile() {
    return new LocalInputFile(location, path);
  }

  private PositionOutputStream open(boolean overwrite) {
    try {
      Files.createDirectories(path.getParent());
      Path temp = path.resolveSibling("." + path.getFileName() + "." + UUID.randomUUID() + ".tmp");
      return new Publishing(Files.newOutputStream(temp), temp, overwrite);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + location, e);
    }
  }

  private final class Publishing extends PositionOutputStream {
    private final OutputStream out;
    private final Path temp;
    private final boolean overwrite;
    private long pos;
    private boolean closed;

    Publishing(OutputStream out, Path temp, boolean overwrite) {
      this.out = out;
      this.temp = temp;
      this.overwrite = overwrite;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      pos++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      pos += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      out.close();
      try {
        if (overwrite) {
          Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
        } else {
          Files.createLink(path, temp);
        }
      } catch (FileAlreadyExistsException e) {
        throw new AlreadyExistsException(e, "file already exists: %s", location);
      } finally {
        Files.deleteIfExists(temp);
      }
    }
  }
}
