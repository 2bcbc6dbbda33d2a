package io.skippr.connect.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a lake directory back with DuckDB, the way a user's query engine would.
 *
 * <p>{@code glob(table)} names the files of one table; queries use {@code read_parquet} with hive
 * partitioning so partition columns come back as columns.
 */
public final class DuckDbLake implements AutoCloseable {
  private final Path root;
  private final Connection connection;

  public DuckDbLake(Path root) {
    this.root = root;
    try {
      Class.forName("org.duckdb.DuckDBDriver");
      this.connection = DriverManager.getConnection("jdbc:duckdb:");
    } catch (ClassNotFoundException | SQLException e) {
      throw new IllegalStateException("cannot start DuckDB", e);
    }
  }

  /** The read_parquet expression over every Parquet file of a table directory. */
  public String table(String table) {
    Path dir = root.resolve(table);
    return "read_parquet('"
        + dir.toAbsolutePath().toString().replace("'", "''")
        + "/**/*.parquet', hive_partitioning=true, union_by_name=true)";
  }

  /** True when the table directory holds at least one Parquet file. */
  public boolean hasFiles(String table) {
    Path dir = root.resolve(table);
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (var files = Files.walk(dir)) {
      return files.anyMatch(p -> p.getFileName().toString().endsWith(".parquet"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Runs a query; {@code ${table:name}} placeholders expand to {@link #table(String)}. */
  public List<Map<String, Object>> query(String sql) {
    String expanded = expand(sql);
    // A fresh statement per query: DuckDB statements are unusable after a failed query.
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(expanded)) {
      ResultSetMetaData meta = rs.getMetaData();
      List<Map<String, Object>> rows = new ArrayList<>();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.put(meta.getColumnLabel(i), rs.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB query failed: " + expanded, e);
    }
  }

  /** Runs a query that returns one number. */
  public long count(String sql) {
    List<Map<String, Object>> rows = query(sql);
    Object value = rows.get(0).values().iterator().next();
    return ((Number) value).longValue();
  }

  private String expand(String sql) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    while (true) {
      int start = sql.indexOf("${table:", from);
      if (start < 0) {
        out.append(sql, from, sql.length());
        return out.toString();
      }
      int end = sql.indexOf('}', start);
      out.append(sql, from, start).append(table(sql.substring(start + 8, end)));
      from = end + 1;
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
