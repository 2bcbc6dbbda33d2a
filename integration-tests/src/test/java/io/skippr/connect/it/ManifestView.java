package io.skippr.connect.it;

import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.testkit.DuckDbLake;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A table as a reader that uses the lake log sees it: DuckDB over exactly the files the logs list
 * as live ({@link LakeManifest}), never a glob of the directory.
 */
final class ManifestView {
  private ManifestView() {}

  /** The live files of a table, as DuckDB's file list; null when it has none yet. */
  static String files(Path lake, String table) {
    Map<Path, Long> files = new LakeManifest().apply(lake).getOrDefault(table, Map.of());
    if (files.isEmpty()) {
      return null;
    }
    return files.keySet().stream()
        .map(path -> "'" + path.toString().replace("'", "''") + "'")
        .collect(Collectors.joining(",", "[", "]"));
  }

  /** How many live files a table has. */
  static int fileCount(Path lake, String table) {
    return new LakeManifest().apply(lake).getOrDefault(table, Map.of()).size();
  }

  /** Runs {@code select <select> from <the table's live files> <rest>}; empty without files. */
  static List<Map<String, Object>> query(Path lake, String table, String select, String rest) {
    String files = files(lake, table);
    if (files == null) {
      return List.of();
    }
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      return duck.query(
          "select " + select + " from read_parquet(" + files + ", union_by_name=true) " + rest);
    }
  }
}
