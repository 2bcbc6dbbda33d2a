package io.skippr.connect.cli.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** An in-memory DuckDB (JDBC) that reads the lake's Parquet files. */
final class DuckDb implements AutoCloseable {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS'Z'");

  private final Connection connection;

  DuckDb() {
    try {
      connection = DriverManager.getConnection("jdbc:duckdb:");
    } catch (SQLException e) {
      throw new DemoException("cannot start DuckDB: " + e.getMessage(), e);
    }
  }

  /** A query's result as text, ready for {@link TextTable}. */
  TextTable query(String sql) throws SQLException {
    // A fresh statement per query: DuckDB statements are unusable after a failed query.
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      ResultSetMetaData meta = rs.getMetaData();
      List<String> header = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        header.add(meta.getColumnLabel(i));
      }
      TextTable table = new TextTable(header);
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.add(rs.getObject(i));
        }
        table.add(
            row.stream().map(DuckDb::text).toList(),
            row.stream().map(v -> v instanceof Number).toList());
      }
      return table;
    }
  }

  /** A query returning one number. */
  long count(String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static String text(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof OffsetDateTime time) {
      return TIME.format(time.withOffsetSameInstant(ZoneOffset.UTC));
    }
    if (value instanceof java.sql.Timestamp time) {
      return TIME.format(time.toInstant().atOffset(ZoneOffset.UTC));
    }
    return value.toString();
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // Nothing was written; closing an in-memory database cannot lose anything.
    }
  }
}
