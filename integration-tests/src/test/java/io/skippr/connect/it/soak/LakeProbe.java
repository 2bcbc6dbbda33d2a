package io.skippr.connect.it.soak;

import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts the files of one lake directory: per table the live files (those its TP logs list, read
 * through the sink's {@link LakeManifest}), the small ones among them (below 0.75 × the sink's
 * {@code compaction.target.bytes}: what compaction has yet to merge) and the retired ones (Parquet
 * files on disk that no log lists: merge inputs and expired files waiting out {@code
 * compaction.grace.ms}, or orphans); for the whole lake the {@code .tmp} files on disk and the log
 * entries under {@code _skippr/}.
 */
public final class LakeProbe {
  private final String name;
  private final Path root;
  private final long smallBytes;

  /**
   * @param name the prefix of this lake's series
   * @param targetBytes the sink's {@code compaction.target.bytes}
   */
  public LakeProbe(String name, Path root, long targetBytes) {
    this.name = name;
    this.root = root;
    this.smallBytes = targetBytes * 3 / 4;
  }

  public Path root() {
    return root;
  }

  public String name() {
    return name;
  }

  /** {@code <name>/tmp_files} and {@code <name>/log_entries}. */
  public List<String> lakeSeries() {
    return List.of(name + "/tmp_files", name + "/log_entries");
  }

  /** {@code <name>/<table>.live}, {@code .small} and {@code .retired}. */
  public List<String> tableSeries(String table) {
    return List.of(live(table), small(table), retired(table));
  }

  public String live(String table) {
    return name + "/" + table + ".live";
  }

  public String small(String table) {
    return name + "/" + table + ".small";
  }

  public String retired(String table) {
    return name + "/" + table + ".retired";
  }

  /**
   * Adds this lake's counts for {@code tables} to {@code out}. The disk is listed before the logs
   * are read, so a file published and committed in between counts as live, not retired.
   */
  public void sample(List<String> tables, Map<String, Double> out) throws IOException {
    Map<String, Set<Path>> onDisk = new HashMap<>();
    int[] lakeWide = new int[2];
    if (Files.isDirectory(root)) {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile()) {
                count(file, onDisk, lakeWide);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // renamed or deleted while listed
              }
              throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
              if (e == null || e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // an expired path deleted while listed
              }
              throw e;
            }
          });
    }
    Map<String, Set<Path>> live = new HashMap<>();
    Map<String, Integer> small = new HashMap<>();
    if (Files.isDirectory(root.resolve("_skippr/log"))) {
      LocalLakeStorage storage = new LocalLakeStorage(root);
      for (Map.Entry<String, List<LiveFile>> table : LakeManifest.liveFiles(storage).entrySet()) {
        Set<Path> files = new HashSet<>();
        int below = 0;
        for (LiveFile file : table.getValue()) {
          files.add(storage.root().resolve(file.key()));
          below += file.bytes() < smallBytes ? 1 : 0;
        }
        live.put(table.getKey(), files);
        small.put(table.getKey(), below);
      }
    }
    for (String table : tables) {
      Set<Path> retired = new HashSet<>(onDisk.getOrDefault(table, Set.of()));
      retired.removeAll(live.getOrDefault(table, Set.of()));
      out.put(live(table), (double) live.getOrDefault(table, Set.of()).size());
      out.put(small(table), (double) small.getOrDefault(table, 0));
      out.put(retired(table), (double) retired.size());
    }
    out.put(name + "/tmp_files", (double) lakeWide[0]);
    out.put(name + "/log_entries", (double) lakeWide[1]);
  }

  private void count(Path file, Map<String, Set<Path>> onDisk, int[] lakeWide) {
    String fileName = file.getFileName().toString();
    Path relative = root.relativize(file);
    if (fileName.endsWith(".tmp")) {
      lakeWide[0]++;
    } else if (relative.startsWith("_skippr")) {
      lakeWide[1] += fileName.endsWith(".json") ? 1 : 0;
    } else if (fileName.endsWith(".parquet")) {
      onDisk.computeIfAbsent(relative.getName(0).toString(), t -> new HashSet<>()).add(file);
    }
  }
}
