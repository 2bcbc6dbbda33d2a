package io.skippr.connect.source.file.commit;

import io.skippr.connect.source.file.config.CompletedPolicy;
import io.skippr.connect.source.file.config.CompletionConfig;
import io.skippr.connect.source.file.scan.FileStat;
import io.skippr.connect.source.file.scan.FileStats;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies file.completed.policy to a file whose last record's offset Kafka has committed. Before
 * deleting or moving, it checks that the name still holds the same file at the same size, so a file
 * that took the name (or grew) is never touched.
 */
public final class CompletedFiles {

  private static final Logger LOG = LoggerFactory.getLogger(CompletedFiles.class);

  /** What became of a file. */
  public enum Outcome {
    /** Left where it is (keep). */
    KEPT,
    /** Deleted or moved away. */
    REMOVED,
    /** Not touched now: it changed, or deleting or moving failed; try again later. */
    LATER
  }

  private final CompletedPolicy policy;
  private final Path completedDir;
  private final Path dir;

  public CompletedFiles(CompletionConfig.Values completion, Path dir) {
    this.policy = completion.policy();
    this.completedDir = completion.dir();
    this.dir = dir;
  }

  /**
   * @param file the file as it was read
   * @param position the position it was read to (its end)
   */
  public Outcome complete(FileStat file, long position) {
    if (policy == CompletedPolicy.KEEP) {
      return Outcome.KEPT;
    }
    FileStat now = FileStats.of(file.path(), file.relative());
    if (now == null) {
      return Outcome.REMOVED; // someone else removed it already
    }
    boolean same = now.handle().equals(file.handle()) && now.size() == file.size();
    if (!same || (!file.compressed() && now.size() != position)) {
      LOG.info("Not completing {}: it changed since it was read", file.path());
      return Outcome.LATER;
    }
    try {
      if (policy == CompletedPolicy.DELETE) {
        Files.delete(file.path());
        LOG.info("Deleted completed file {}", file.path());
      } else {
        Path target = move(file);
        LOG.info("Moved completed file {} to {}", file.path(), target);
      }
      return Outcome.REMOVED;
    } catch (IOException e) {
      LOG.warn("Cannot {} completed file {}: {}", policy, file.path(), e.toString());
      return Outcome.LATER;
    }
  }

  private Path move(FileStat file) throws IOException {
    Path target = completedDir.resolve(dir.relativize(file.path()));
    Files.createDirectories(target.getParent());
    Path free = target;
    // An atomic move (rename) would replace an existing file: never overwrite one.
    for (int n = 1; Files.exists(free, java.nio.file.LinkOption.NOFOLLOW_LINKS); n++) {
      free = target.resolveSibling(target.getFileName() + "." + n);
    }
    return moveTo(file.path(), free);
  }

  private static Path moveTo(Path source, Path target) throws IOException {
    try {
      return Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      return Files.move(source, target);
    }
  }
}
