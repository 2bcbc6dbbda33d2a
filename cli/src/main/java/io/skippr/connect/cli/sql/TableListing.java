package io.skippr.connect.cli.sql;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code skippr sql --tables}: the tables with their policy, live files, rows, bytes and last
 * commit, as a query so that it prints as any result does.
 */
final class TableListing {
  private static final String COLUMNS = "(\"table\", policy, files, \"rows\", bytes, last_commit)";

  private TableListing() {}

  static String query(List<LakeTable> tables) {
    if (tables.isEmpty()) {
      return "select * from (values (null::varchar, null::varchar, null::bigint, null::bigint,"
          + " null::bigint, null::timestamptz)) t"
          + COLUMNS
          + " where false";
    }
    return tables.stream()
        .map(TableListing::row)
        .collect(
            Collectors.joining(
                ", ", "select * from (values ", ") t" + COLUMNS + " order by \"table\""));
  }

  private static String row(LakeTable table) {
    String lastCommit =
        table.lastCommitMs().isPresent()
            ? "epoch_ms(" + table.lastCommitMs().getAsLong() + ")::timestamptz"
            : "null::timestamptz";
    return "("
        + TableView.literal(table.name())
        + ", "
        + TableView.literal(table.policy().describe())
        + ", "
        + table.files().size()
        + "::bigint, "
        + table.rows()
        + "::bigint, "
        + table.bytes()
        + "::bigint, "
        + lastCommit
        + ")";
  }
}
