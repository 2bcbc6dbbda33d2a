package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.LiveFile;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFiles;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Iceberg operation of a batch, over the guarded table. */
final class Operations {
  private static final Logger LOG = LoggerFactory.getLogger(Operations.class);

  private Operations() {}

  /**
   * @param present the table's current files among those to remove, by location
   * @return the operation, or null when there is nothing to change in the table
   */
  static SnapshotUpdate<?> build(
      Table table,
      TableRegistrar.Kind kind,
      List<Slice> batch,
      TableRegistrar.Plan plan,
      Map<String, DataFile> present,
      LakeDataFiles files) {
    if (plan.removed().size() > present.size()) {
      LOG.warn(
          "{}: {} of {} file(s) to remove are not in the table (removed by another engine?)",
          table.name(),
          plan.removed().size() - present.size(),
          plan.removed().size());
    }
    if (present.isEmpty()) {
      if (plan.added().isEmpty()) {
        return null;
      }
      AppendFiles append = table.newAppend();
      plan.added().forEach(f -> append.appendFile(files.dataFile(table, f)));
      return append;
    }
    boolean merged =
        batch.stream().anyMatch(s -> s.change() instanceof Change.Replace r && r.merged());
    return switch (kind) {
      case REPLACE ->
          merged
              ? overwrite(table, plan.added(), present, files)
              : rewrite(table, plan.added(), present, files);
      case EXPIRE -> {
        DeleteFiles delete = table.newDelete();
        present.values().forEach(delete::deleteFile);
        yield delete;
      }
      default -> overwrite(table, plan.added(), present, files);
    };
  }

  /** Same rows in other files: Iceberg's {@code replace}, which incremental readers skip. */
  private static RewriteFiles rewrite(
      Table table, List<LiveFile> added, Map<String, DataFile> present, LakeDataFiles files) {
    RewriteFiles rewrite = table.newRewrite();
    present.values().forEach(rewrite::deleteFile);
    added.forEach(f -> rewrite.addFile(files.dataFile(table, f)));
    return rewrite;
  }

  /** Other rows than before (merge-by-key's current state, a reconciliation): copy on write. */
  private static OverwriteFiles overwrite(
      Table table, List<LiveFile> added, Map<String, DataFile> present, LakeDataFiles files) {
    OverwriteFiles overwrite = table.newOverwrite();
    present.values().forEach(overwrite::deleteFile);
    added.forEach(f -> overwrite.addFile(files.dataFile(table, f)));
    return overwrite;
  }
}
