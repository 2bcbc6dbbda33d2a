package io.skippr.connect.cli.sql;

import io.skippr.connect.cli.lake.LakeException;
import io.skippr.connect.lake.convert.RowColumns;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The DuckDB view of a lake table over exactly its live files.
 *
 * <p>An appended table is its files' rows. A table merged by key is its current state, between
 * merges too: of each key's rows the last in (topic partition, offset) order, and no row for a key
 * whose last row deletes it. The files are listed in the order of their rows, so DuckDB's virtual
 * columns {@code file_index} (the position in the list) and {@code file_row_number} order a key's
 * rows as the sink's merge does.
 */
final class TableView {
  /** Debezium's envelope field naming the operation; {@code d} deletes. */
  private static final String OP = "op";

  private TableView() {}

  /** {@code read_parquet([...])} over the files, partition directories as columns. */
  static String readParquet(List<Path> files) {
    return files.stream()
        .map(file -> literal(file.toString()))
        .collect(
            Collectors.joining(
                ", ", "read_parquet([", "], hive_partitioning=true, union_by_name=true)"));
  }

  /**
   * The view's query.
   *
   * @param files the table's live files in the order of their rows
   * @param columns the files' columns and their DuckDB types, by name
   * @throws LakeException when a key column is missing
   */
  static String query(LakeTable table, List<Path> files, Map<String, String> columns) {
    String rows = readParquet(files);
    TablePolicy policy = table.policy();
    if (!policy.byKey()) {
      return "select * from " + rows;
    }
    List<String> key = new ArrayList<>();
    for (String field : policy.keyFields()) {
      if (!columns.containsKey(field)) {
        throw new LakeException(
            table.name()
                + " is read as merge_by_key but its files have no key column "
                + field
                + (field.equals(RowColumns.KEY)
                    ? " (a merge by record key needs include.key=true; or give the key fields:"
                        + " --merge-key "
                        + table.name()
                        + "=FIELD,...)"
                    : ""));
      }
      key.add(identifier(field));
    }
    String latest =
        "select * from "
            + rows
            + " qualify row_number() over (partition by "
            + String.join(", ", key)
            + " order by file_index desc, file_row_number desc) = 1";
    List<String> deletes = new ArrayList<>();
    deleteTest(columns, RowColumns.DELETED, "true").ifPresent(deletes::add);
    deleteTest(columns, OP, "d").ifPresent(deletes::add);
    if (deletes.isEmpty()) {
      return latest;
    }
    return "select * from (" + latest + ") where not (" + String.join(" or ", deletes) + ")";
  }

  /** {@code create or replace view "name" as ...}. */
  static String create(String name, String query) {
    return "create or replace view " + identifier(name) + " as " + query;
  }

  /** A delete test as the sink's merge makes it: the column's text equals the value. */
  private static Optional<String> deleteTest(
      Map<String, String> columns, String column, String value) {
    String type = columns.get(column);
    if (type == null || isNested(type)) {
      return Optional.empty(); // a nested column never deletes
    }
    return Optional.of(
        "coalesce(cast(" + identifier(column) + " as varchar) = " + literal(value) + ", false)");
  }

  private static boolean isNested(String type) {
    return type.startsWith("STRUCT")
        || type.startsWith("MAP")
        || type.startsWith("UNION")
        || type.endsWith("]");
  }

  static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
