package io.skippr.connect.cli.sql;

import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Lake files as paths DuckDB can read. A local lake's files are read where they are. DuckDB reads
 * S3 only through its httpfs extension, which its JDBC driver does not bundle (it downloads it from
 * the network on first use); so the files of a lake on S3 are fetched through the lake's own
 * storage, with the sink's S3 settings and credentials, into a temporary directory that {@link
 * #close} deletes. Keys keep their layout there, so partition directories stay columns.
 */
final class LocalFiles implements AutoCloseable {
  private final LakeStorage storage;
  private final Path root;
  private final boolean copies;
  private final LakeLayout layout = new LakeLayout();

  LocalFiles(LakeStorage storage) throws IOException {
    this.storage = storage;
    if (storage instanceof LocalLakeStorage local) {
      this.root = local.root();
      this.copies = false;
    } else {
      this.root = Files.createTempDirectory("skippr-sql-");
      this.copies = true;
    }
  }

  /**
   * A readable path of the file under {@code key}, fetched once when the lake is not local. A live
   * file may still be staged (a merge's output between its commit and its move into the table): it
   * is read there.
   */
  Path path(String key) throws IOException {
    Path path = resolve(root, key);
    if (!copies) {
      Path staged = resolve(root, layout.stagedKey(key));
      return !Files.exists(path) && Files.exists(staged) ? staged : path;
    }
    if (!Files.exists(path)) {
      Files.createDirectories(path.getParent());
      Path partial = path.resolveSibling(path.getFileName() + ".part");
      Files.write(partial, read(key));
      Files.move(partial, path);
    }
    return path;
  }

  private byte[] read(String key) throws IOException {
    try {
      return storage.read(key);
    } catch (NoSuchFileException e) {
      try {
        return storage.read(layout.stagedKey(key));
      } catch (NoSuchFileException staged) {
        throw e;
      }
    }
  }

  /** The path of a key under a directory. */
  static Path resolve(Path root, String key) {
    Path path = root;
    for (String segment : key.split("/")) {
      path = path.resolve(segment);
    }
    return path;
  }

  @Override
  public void close() {
    if (!copies) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the fetched lake files in " + root, e);
    }
  }
}
