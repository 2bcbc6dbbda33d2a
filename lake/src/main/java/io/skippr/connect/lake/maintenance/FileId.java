package io.skippr.connect.lake.maintenance;

import io.skippr.connect.lake.log.LakeLayout;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a lake file's key says: {@code {table}/{partition path}/{compaction id}.{codec}.parquet},
 * where the id is a unit's ({@code {topic}+{p}[+g{n}]+{start}+{end}}) or a merge's (the same with
 * {@code +m{hash}}).
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

  /** {@code +g{n}+{start}+{end}} or {@code +{start}+{end}}, then maybe {@code +m{hash}}. */
  private static final Pattern RANGE =
      Pattern.compile("\\+(?:g(\\d+)\\+)?(\\d+)\\+(\\d+)(?:\\+m[0-9a-f]+)?$");

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
    Matcher range = RANGE.matcher(id);
    if (!range.find()) {
      return null;
    }
    long generation = range.group(1) == null ? 0 : Long.parseLong(range.group(1));
    return new FileId(
        table,
        path,
        id,
        generation,
        Long.parseLong(range.group(2)),
        Long.parseLong(range.group(3)),
        name.substring(dot + 1));
  }
}
