package io.skippr.connect.source.file.scan;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.FileVisitor;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the regular files under a directory whose relative path matches the glob, oldest first.
 * Symbolic links to files are followed; the completed directory is never entered. A file that
 * disappears or cannot be read during the walk is left out (the next listing sees it again).
 */
public final class DirectoryScanner {

  private static final Logger LOG = LoggerFactory.getLogger(DirectoryScanner.class);

  private final Path dir;
  private final PathMatcher matcher;
  private final boolean recursive;
  private final Path excluded;
  private boolean missingReported;

  /**
   * @param excluded a directory never listed (where completed files are moved), or null
   */
  public DirectoryScanner(Path dir, PathMatcher matcher, boolean recursive, Path excluded) {
    this.dir = dir;
    this.matcher = matcher;
    this.recursive = recursive;
    this.excluded = excluded;
  }

  /** The matching files, ordered by modification time, then path. */
  public List<FileStat> list() {
    if (!Files.isDirectory(dir)) {
      if (!missingReported) {
        LOG.warn("{} is not a directory (yet): nothing to read until it exists", dir);
        missingReported = true;
      }
      return List.of();
    }
    missingReported = false;
    List<FileStat> found = new ArrayList<>();
    try {
      // A file.dir that is a symbolic link is walked where it points; paths stay under file.dir.
      Path root = dir.toRealPath();
      Path skip =
          excluded != null && Files.isDirectory(excluded) ? excluded.toRealPath() : excluded;
      Files.walkFileTree(
          root,
          EnumSet.noneOf(java.nio.file.FileVisitOption.class),
          recursive ? 64 : 1,
          visitor(root, skip, found));
    } catch (IOException e) {
      LOG.warn("Cannot list {}: {}", dir, e.toString());
    }
    found.sort(
        Comparator.comparingLong(FileStat::modifiedMillis).thenComparing(FileStat::relative));
    return found;
  }

  private FileVisitor<Path> visitor(Path root, Path skip, List<FileStat> found) {
    return new FileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
        return d.equals(skip) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Path relative = root.relativize(file);
        if (!matcher.matches(relative)) {
          return FileVisitResult.CONTINUE;
        }
        BasicFileAttributes target = attrs;
        if (attrs.isSymbolicLink()) {
          target = followed(file);
        }
        if (target != null && target.isRegularFile()) {
          found.add(FileStats.of(dir.resolve(relative), slashes(relative), target));
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        if (!(e instanceof NoSuchFileException)) {
          LOG.warn("Cannot read the attributes of {}: {}", file, e.toString());
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) {
        return FileVisitResult.CONTINUE;
      }
    };
  }

  private static BasicFileAttributes followed(Path link) {
    try {
      return Files.readAttributes(link, BasicFileAttributes.class);
    } catch (IOException e) {
      return null; // a dangling link
    }
  }

  private static String slashes(Path relative) {
    return relative.toString().replace(relative.getFileSystem().getSeparator(), "/");
  }
}
