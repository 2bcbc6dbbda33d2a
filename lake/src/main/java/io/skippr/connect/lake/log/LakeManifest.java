package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The files a reader should read: every file a TP log lists as committed, per table. Files on disk
 * that no commit lists (orphans left by a crash or a fenced writer, or a unit being published) are
 * left out. Reads only; never claims an epoch.
 *
 * <p>As a {@link Function} over a local lake directory it uses JDK types only, so a program that
 * loads the plugin through a classloader of its own (the CLI) can call it.
 */
public final class LakeManifest implements Function<Path, Map<String, Map<Path, Long>>> {
  private static final LakeLayout LAYOUT = new LakeLayout();

  /** The live files of every table, by table name, in key order. */
  public static Map<String, List<LiveFile>> liveFiles(LakeStorage storage) throws IOException {
    Map<String, List<LiveFile>> byTable = new TreeMap<>();
    for (LogHistory.Tp tp : LogHistory.partitions(storage, LAYOUT)) {
      TpLog log = TpLog.read(storage, LAYOUT, tp.topic(), tp.partition());
      for (LiveFile file : log.state().liveFiles().values()) {
        byTable.computeIfAbsent(LAYOUT.tableOf(file.key()), t -> new ArrayList<>()).add(file);
      }
    }
    byTable.values().forEach(files -> files.sort((a, b) -> a.key().compareTo(b.key())));
    return byTable;
  }

  /**
   * The live files of a lake on local disk: table → (absolute path → rows). A file that is live but
   * not in its table yet (a merge's output, or a unit's file that replaces others, from its commit
   * until it is moved into place right after) is given where it is, staged.
   *
   * @throws UncheckedIOException when the lake cannot be read
   */
  @Override
  public Map<String, Map<Path, Long>> apply(Path lake) {
    LocalLakeStorage storage = new LocalLakeStorage(lake);
    Map<String, Map<Path, Long>> result = new LinkedHashMap<>();
    try {
      liveFiles(storage)
          .forEach(
              (table, files) -> {
                Map<Path, Long> rows = new LinkedHashMap<>();
                files.forEach(f -> rows.put(whereItIs(storage.root(), f.key()), f.rows()));
                result.put(table, rows);
              });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the lake log under " + lake, e);
    }
    return result;
  }

  private static Path whereItIs(Path root, String key) {
    Path inTable = root.resolve(key);
    if (Files.exists(inTable)) {
      return inTable;
    }
    Path staged = root.resolve(LAYOUT.stagedKey(key));
    return Files.exists(staged) ? staged : inTable;
  }
}
