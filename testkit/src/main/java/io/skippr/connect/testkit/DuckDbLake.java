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
import java.util.function.Function;

/**
 * Reads a lake directory back with DuckDB, the way a user's query engine would.
 *
 * <p>{@code glob(table)} names the files of one table; queries use {@code read_parquet} with hive
 * partitioning so partition columns come back as columns.
 */
public final class DuckDbLake implements AutoCloseable {
  private static final String MANIFEST = "io.skippr.connect.lake.log.LakeManifest";

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

  /**
   * The read_parquet expression over a table: the files the lake's logs list as live when the lake
   * has logs (as a reader of the lake's manifest sees it, so a merged file's inputs that wait out
   * their grace period are not read twice), else every Parquet file of the table directory.
   */
  public String table(String table) {
    List<Path> live = liveFiles(table);
    String options = ", hive_partitioning=true, union_by_name=true)";
    if (live == null || live.isEmpty()) {
      Path dir = root.resolve(table);
      return "read_parquet('" + quote(dir.toAbsolutePath() + "/**/*.parquet") + "'" + options;
    }
    StringBuilder files = new StringBuilder("read_parquet([");
    for (int i = 0; i < live.size(); i++) {
      files.append(i == 0 ? "'" : ", '").append(quote(live.get(i).toString())).append("'");
    }
    return files.append("]").append(options).toString();
  }

  /** True when the table has at least one (live) Parquet file. */
  public boolean hasFiles(String table) {
    List<Path> live = liveFiles(table);
    if (live != null) {
      return !live.isEmpty();
    }
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

  /**
   * The live files of a table from the lake's logs, through the sink's {@code LakeManifest} when it
   * is on the classpath (it is wherever the lake sink is; this module cannot depend on it); null
   * for a lake without logs.
   */
  @SuppressWarnings("unchecked")
  private List<Path> liveFiles(String table) {
    if (!Files.isDirectory(root.resolve("_skippr/log"))) {
      return null;
    }
    Function<Path, Map<String, Map<Path, Long>>> manifest;
    try {
      manifest =
          (Function<Path, Map<String, Map<Path, Long>>>)
              Class.forName(MANIFEST).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      return null;
    }
    return new ArrayList<>(manifest.apply(root).getOrDefault(table, Map.of()).keySet());
  }

  private static String quote(String text) {
    return text.replace("'", "''");
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

  /**
   * Runs a query over a lake that is being written and maintained: when a file the logs listed as
   * live was retired and deleted before DuckDB opened it (the loud failure a reader of a live lake
   * may meet), lists the live files again and retries, up to {@code attempts} times.
   */
  public List<Map<String, Object>> queryLive(String sql, int attempts) {
    for (int attempt = 1; ; attempt++) {
      try {
        return query(sql);
      } catch (IllegalStateException e) {
        if (attempt >= attempts || !fileVanished(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean fileVanished(IllegalStateException e) {
    String cause = e.getCause() == null ? "" : String.valueOf(e.getCause().getMessage());
    return cause.contains("No files found that match the pattern")
        || cause.contains("No such file or directory");
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
