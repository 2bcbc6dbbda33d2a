package io.skippr.connect.cli.sql;

import io.skippr.connect.lake.log.LiveFile;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A lake table as its TP logs list it now.
 *
 * @param files its live files in the order of their rows ({@link
 *     io.skippr.connect.cli.lake.LakeFileNames#ROW_ORDER})
 */
record LakeTable(String name, TablePolicy policy, List<LiveFile> files) {
  LakeTable {
    files = List.copyOf(files);
  }

  /** Rows in its live files: every version and delete marker of a table merged by key. */
  long rows() {
    return files.stream().mapToLong(LiveFile::rows).sum();
  }

  long bytes() {
    return files.stream().mapToLong(LiveFile::bytes).sum();
  }

  /** When its newest file was committed; empty when the log does not say (older lakes). */
  OptionalLong lastCommitMs() {
    return files.stream()
        .map(LiveFile::committedAtMs)
        .filter(Objects::nonNull)
        .mapToLong(Long::longValue)
        .max();
  }
}
