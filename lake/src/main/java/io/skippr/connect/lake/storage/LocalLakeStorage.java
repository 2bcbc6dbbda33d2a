package io.skippr.connect.lake.storage;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A lake on a local (or mounted) file system.
 *
 * <p>Objects being written live under a hidden temporary name in their final directory ({@code
 * .{name}.{random}.tmp}, never ending in {@code .parquet}), are fsynced and then renamed into place
 * atomically, so a reader globbing {@code *.parquet} never sees a partial file.
 */
public final class LocalLakeStorage implements LakeStorage {
  private static final String TEMP_SUFFIX = ".tmp";

  private final Path root;

  public LocalLakeStorage(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** Opens a plain path or a {@code file:} URI. */
  public static LocalLakeStorage at(String location) {
    if (location.startsWith("file:")) {
      return new LocalLakeStorage(Paths.get(URI.create(location)));
    }
    return new LocalLakeStorage(Paths.get(location));
  }

  public Path root() {
    return root;
  }

  @Override
  public boolean createIfAbsent(String key, byte[] content) throws IOException {
    Path target = resolve(key);
    Files.createDirectories(target.getParent());
    Path temp = tempFor(target);
    try {
      try (FileOutputStream out = new FileOutputStream(temp.toFile())) {
        out.write(content);
        out.getFD().sync();
      }
      // A hard link fails atomically when the target exists and exposes only complete content.
      Files.createLink(target, temp);
      syncDirectory(target.getParent());
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public PendingObject create(String key) throws IOException {
    Path target = resolve(key);
    Files.createDirectories(target.getParent());
    Path temp = tempFor(target);
    return new LocalPendingObject(key, target, temp, new FileOutputStream(temp.toFile()));
  }

  @Override
  public byte[] read(String key) throws IOException {
    return Files.readAllBytes(resolve(key));
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    List<String> keys = new ArrayList<>();
    for (Path file : filesUnder(prefix)) {
      String key = keyOf(file);
      if (key.startsWith(prefix) && !isTemp(file)) {
        keys.add(key);
      }
    }
    keys.sort(null);
    return keys;
  }

  @Override
  public List<String> listIncomplete(String prefix) throws IOException {
    TreeSet<String> keys = new TreeSet<>();
    for (Path file : filesUnder(prefix)) {
      if (isTemp(file)) {
        String key = keyOf(file.resolveSibling(targetNameOf(file)));
        if (key.startsWith(prefix)) {
          keys.add(key);
        }
      }
    }
    return new ArrayList<>(keys);
  }

  @Override
  public void discardIncomplete(String key) throws IOException {
    Path target = resolve(key);
    if (!Files.isDirectory(target.getParent())) {
      return;
    }
    String name = target.getFileName().toString();
    try (Stream<Path> siblings = Files.list(target.getParent())) {
      for (Path sibling : siblings.toList()) {
        if (isTemp(sibling) && targetNameOf(sibling).equals(name)) {
          Files.deleteIfExists(sibling);
        }
      }
    }
  }

  @Override
  public void delete(String key) throws IOException {
    Files.deleteIfExists(resolve(key));
  }

  @Override
  public void move(String from, String to) throws IOException {
    Path source = resolve(from);
    Path target = resolve(to);
    Files.createDirectories(target.getParent());
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    syncDirectory(target.getParent());
    syncDirectory(source.getParent());
  }

  @Override
  public boolean exists(String key) throws IOException {
    return Files.isRegularFile(resolve(key));
  }

  @Override
  public String location() {
    return root.toUri().toString();
  }

  private Path resolve(String key) {
    Path path = root;
    for (String segment : StorageKeys.check(key).split("/")) {
      path = path.resolve(segment);
    }
    return path;
  }

  private List<Path> filesUnder(String prefix) throws IOException {
    int slash = prefix.lastIndexOf('/');
    Path dir = slash < 0 ? root : resolve(prefix.substring(0, slash));
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isRegularFile()) {
              files.add(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            // A file or directory that vanished while walking (a temporary file renamed into
            // place, a concurrent delete) is simply not there.
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    return files;
  }

  private String keyOf(Path file) {
    return root.relativize(file).toString().replace(java.io.File.separatorChar, '/');
  }

  private static Path tempFor(Path target) {
    return target.resolveSibling(
        "."
            + target.getFileName()
            + "."
            + UUID.randomUUID().toString().substring(0, 8)
            + TEMP_SUFFIX);
  }

  private static boolean isTemp(Path file) {
    String name = file.getFileName().toString();
    return name.startsWith(".") && name.endsWith(TEMP_SUFFIX) && name.indexOf('.', 1) > 0;
  }

  /** {@code .{name}.{random}.tmp} → {@code name}. */
  private static String targetNameOf(Path temp) {
    String name = temp.getFileName().toString();
    String withoutSuffix = name.substring(1, name.length() - TEMP_SUFFIX.length());
    int lastDot = withoutSuffix.lastIndexOf('.');
    return lastDot < 0 ? withoutSuffix : withoutSuffix.substring(0, lastDot);
  }

  static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException | UnsupportedOperationException ignored) {
      // Some platforms cannot fsync a directory; the rename itself is still atomic there.
    }
  }

  private static final class LocalPendingObject implements PendingObject {
    private final String key;
    private final Path target;
    private final Path temp;
    private final FileOutputStream file;
    private boolean finished;

    LocalPendingObject(String key, Path target, Path temp, FileOutputStream file) {
      this.key = key;
      this.target = target;
      this.temp = temp;
      this.file = file;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public OutputStream stream() {
      return file;
    }

    @Override
    public void complete() throws IOException {
      if (finished) {
        throw new IllegalStateException("object already finished: " + key);
      }
      try {
        file.flush();
        file.getFD().sync();
        file.close();
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        finished = true;
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
      syncDirectory(target.getParent());
    }

    @Override
    public void abort() {
      if (finished) {
        return;
      }
      finished = true;
      try {
        file.close();
      } catch (IOException ignored) {
        // The temporary file is deleted next; a close failure changes nothing.
      }
      try {
        Files.deleteIfExists(temp);
      } catch (IOException ignored) {
        // Left-over temporary files are invisible to readers and swept on the next open.
      }
    }
  }
}
