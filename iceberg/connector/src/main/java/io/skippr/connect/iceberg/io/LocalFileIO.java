package io.skippr.connect.iceberg.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * Iceberg's file access on local disk with the JDK alone: Iceberg's own local FileIO is Hadoop's.
 * Locations are {@code file:/abs/path}, {@code file:///abs/path} or {@code /abs/path}, taken
 * literally (a lake's partition directories hold {@code %}-escapes that are part of their names). A
 * new file becomes visible only complete: it is written under a temporary name and linked into
 * place, which fails if the file exists.
 */
public class LocalFileIO implements FileIO {
  private Map<String, String> properties = Map.of();

  /** The local path of a location. */
  public static Path path(String location) {
    String path = location;
    if (path.startsWith("file://")) {
      path = path.substring("file://".length());
    } else if (path.startsWith("file:")) {
      path = path.substring("file:".length());
    }
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("not an absolute local location: " + location);
    }
    return Path.of(path);
  }

  /** The location Iceberg records for a local path: {@code file:} and the absolute path. */
  public static String location(Path path) {
    return "file:" + path.toAbsolutePath().normalize();
  }

  @Override
  public void initialize(Map<String, String> props) {
    this.properties = Map.copyOf(props);
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public InputFile newInputFile(String location) {
    return new LocalInputFile(location, path(location));
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return new LocalInputFile(location, path(location), length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new LocalOutputFile(location, path(location));
  }

  @Override
  public void deleteFile(String location) {
    try {
      Files.deleteIfExists(path(location));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + location, e);
    }
  }
}
