package io.skippr.connect.cli.sql;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.duckdb.DuckDBPreparedStatement;

/** An in-memory DuckDB in which lake tables are views over their live files. Times print in UTC. */
final class SqlSession implements AutoCloseable {
  private final Connection connection;

  SqlSession() throws SQLException {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = connection.createStatement()) {
      statement.execute("set TimeZone = 'UTC'");
      // Progress is read through the driver (QueryProgress); DuckDB must not print its own bar.
      statement.execute("set enable_progress_bar = true");
      statement.execute("set enable_progress_bar_print = false");
    }
  }

  /**
   * Makes each table a view of its name over its live files, replacing an earlier view.
   *
   * @throws io.skippr.connect.cli.lake.LakeException when a table cannot be read as its policy says
   */
  void define(List<LakeTable> tables, LocalFiles files) throws SQLException, IOException {
    for (LakeTable table : tables) {
      List<Path> paths = new ArrayList<>();
      for (var file : table.files()) {
        paths.add(files.path(file.key()));
      }
      Map<String, String> columns =
          table.policy().byKey() ? columns(TableView.readParquet(paths)) : Map.of();
      execute(TableView.create(table.name(), TableView.query(table, paths, columns)));
    }
  }

  /** The columns and DuckDB types of a relation. */
  private Map<String, String> columns(String relation) throws SQLException {
    Map<String, String> columns = new LinkedHashMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("describe select * from " + relation)) {
      while (rs.next()) {
        columns.put(rs.getString("column_name"), rs.getString("column_type"));
      }
    }
    return columns;
  }

  void execute(String sql) throws SQLException {
    // A fresh statement per statement: DuckDB statements are unusable after a failed one.
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** What to do with a statement's result; {@code rs} is null for a statement without rows. */
  interface Result<T> {
    T read(ResultSet rs) throws SQLException, IOException;
  }

  /** Runs one statement, telling {@code progress} how far it is while it runs. */
  <T> T run(String sql, QueryProgress progress, Result<T> result) throws SQLException, IOException {
    try (Statement statement = connection.createStatement()) {
      DuckDBPreparedStatement duck = statement.unwrap(DuckDBPreparedStatement.class);
      boolean rows;
      try (QueryProgress.Watch watch =
          progress.watch(() -> duck.getQueryProgress().getPercentage())) {
        rows = statement.execute(sql);
      }
      if (!rows) {
        return result.read(null);
      }
      try (ResultSet rs = statement.getResultSet()) {
        return result.read(rs);
      }
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
