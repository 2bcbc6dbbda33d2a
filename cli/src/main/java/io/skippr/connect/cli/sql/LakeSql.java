package io.skippr.connect.cli.sql;

import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * SQL over a lake: each lake table a DuckDB view of its name over exactly the files its TP logs
 * list as live, as they list them when the views are (re)defined. What {@code skippr sql} runs, and
 * what the demo reads the lake with.
 */
public final class LakeSql implements AutoCloseable {
  private static final int ATTEMPTS = 10;

  private final LakeCatalog catalog;
  private final LocalFiles files;
  private final SqlSession session;

  LakeSql(LakeCatalog catalog) throws IOException, SQLException {
    this.catalog = catalog;
    this.files = new LocalFiles(catalog.storage());
    this.session = new SqlSession();
  }

  /** Every table of a lake on local disk, each read by the policy its sink recorded. */
  public static LakeSql local(Path lake) throws IOException, SQLException {
    return new LakeSql(new LakeCatalog(new LocalLakeStorage(lake), TableScope.wholeLake(Map.of())));
  }

  /**
   * Reads the logs again and (re)defines the view of each table {@code wanted} accepts.
   *
   * @return the tables in scope, viewed or not
   */
  List<LakeTable> refresh(Predicate<String> wanted) throws IOException, SQLException {
    List<LakeTable> tables = catalog.tables();
    session.define(tables.stream().filter(t -> wanted.test(t.name())).toList(), files);
    return tables;
  }

  /** Reads the logs again and (re)defines the view of every table; returns their names. */
  public List<String> refresh() throws IOException, SQLException {
    return refresh(name -> true).stream().map(LakeTable::name).toList();
  }

  /** A query's one number. */
  public long count(String sql) throws SQLException, IOException {
    return session.run(
        sql,
        QueryProgress.NONE,
        rs -> {
          rs.next();
          return rs.getLong(1);
        });
  }

  /** Runs a query and prints its rows as a table, each line after {@code indent}. */
  public int printTable(String sql, PrintWriter out, String indent)
      throws SQLException, IOException {
    return query(sql, ResultPrinter.Output.table, out, indent, QueryProgress.NONE);
  }

  /** Prints the tables in scope with their policy, live files, rows, bytes and last commit. */
  int printTables(ResultPrinter.Output output, PrintWriter out) throws SQLException, IOException {
    return print(TableListing.query(catalog.tables()), output, out, "", QueryProgress.NONE);
  }

  /**
   * Runs a statement over the views of the tables it names and prints its rows, if it has any;
   * returns how many. A file that maintenance moved out of its table between the reading of the
   * logs and the query (a merge's input, retired when the merge committed) makes it read the logs
   * and run again.
   */
  int query(String sql, ResultPrinter.Output output, PrintWriter out, QueryProgress progress)
      throws SQLException, IOException {
    return query(sql, output, out, "", progress);
  }

  private int query(
      String sql,
      ResultPrinter.Output output,
      PrintWriter out,
      String indent,
      QueryProgress progress)
      throws SQLException, IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        refresh(table -> mentions(sql, table));
        return print(sql, output, out, indent, progress);
      } catch (SQLException | NoSuchFileException e) {
        if (attempt == ATTEMPTS || !isMissingFile(e)) {
          throw e;
        }
      }
    }
  }

  /** Views are made of the tables a statement names, as far as its text shows. */
  static boolean mentions(String sql, String table) {
    return sql.toLowerCase(Locale.ROOT).contains(table.toLowerCase(Locale.ROOT));
  }

  private static boolean isMissingFile(Exception e) {
    String message = String.valueOf(e.getMessage());
    return e instanceof NoSuchFileException
        || message.contains("No files found that match")
        || message.contains("No such file or directory");
  }

  /** Runs a statement and prints its rows, if it has any; returns how many. */
  int print(
      String sql,
      ResultPrinter.Output output,
      PrintWriter out,
      String indent,
      QueryProgress progress)
      throws SQLException, IOException {
    return session.run(
        sql, progress, rs -> rs == null ? 0 : ResultPrinter.print(rs, output, out, indent));
  }

  @Override
  public void close() throws IOException, SQLException {
    try (catalog;
        files) {
      session.close();
    }
  }
}
