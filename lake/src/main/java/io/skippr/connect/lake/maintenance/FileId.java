package io.skippr.connect.lake.maintenance;

import io.skippr.connect.lake.log.CompactionId;
import io.skippr.connect.lake.log.LakeLayout;

/**
 * What a lake file's key says: {@code {table}/{partition path}/{compaction id}.{codec}.parquet},
 * where the id ({@link CompactionId}) is a unit's or a merge's.
 *
 * @param table the table
 * @param partitionPath the partition path inside the table, empty for none
 * @param id the compaction id
 * @param generation the TP generation the rows come from
 * @param start the first offset of the rows
 * @param end the last offset of the rows
 * @param extension what follows the id, e.g. {@code snappy.parquet}
 */
public record FileId(
    String table,
    String partitionPath,
    String id,
    long generation,
    long start,
    long end,
    String extension) {

  /** Parses a live file's key; null when it is not a file a unit or merge of the TP wrote. */
  public static FileId parse(LakeLayout layout, String key) {
    String table = layout.tableOf(key);
    String inTable = key.substring(layout.tablePrefix(table).length());
    int slash = inTable.lastIndexOf('/');
    String path = slash < 0 ? "" : inTable.substring(0, slash);
    String name = inTable.substring(slash + 1);
    if (!name.endsWith(".parquet")) {
      return null;
    }
    String stem = name.substring(0, name.length() - ".parquet".length());
    int dot = stem.lastIndexOf('.');
    if (dot < 0) {
      return null;
    }
    String id = stem.substring(0, dot);
    return CompactionId.parse(id)
        .map(
            parsed ->
                new FileId(
                    table,
                    path,
                    id,
                    parsed.generation(),
                    parsed.start(),
                    parsed.end(),
                    name.substring(dot + 1)))
        .orElse(null);
  }
}
