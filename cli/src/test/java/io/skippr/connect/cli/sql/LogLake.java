package io.skippr.connect.cli.sql;

import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A lake on local disk whose TP logs say what the tests need: units committed with files written by
 * DuckDB from a query, merges, and files no log lists.
 */
final class LogLake implements AutoCloseable {
  static final String PATH = "dt=2026-01-01";
  private static final LakeLayout LAYOUT = new LakeLayout();

  private final Path root;
  private final LocalLakeStorage storage;
  private final Map<String, TpLog> logs = new HashMap<>();
  private final Connection duck;
  private long clock = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  LogLake(Path root) throws SQLException {
    this.root = root;
    this.storage = new LocalLakeStorage(root);
    this.duck = DriverManager.getConnection("jdbc:duckdb:");
  }

  Path root() {
    return root;
  }

  /** The key of a unit's file in {@link #PATH}. */
  static String unitKey(String table, String topic, int partition, String range) {
    return LAYOUT.fileKey(table, PATH, topic + "+" + partition + "+" + range, "snappy.parquet");
  }

  /**
   * Commits unit {@code [start, end]} of generation 0 of a TP with one file of the rows {@code
   * select} gives.
   *
   * @return the file's key
   */
  String commit(String table, String topic, int partition, long start, long end, String select)
      throws IOException, SQLException {
    return commit(table, topic, partition, 0, start, end, select);
  }

  /** As {@link #commit(String, String, int, long, long, String)}, in a generation. */
  String commit(
      String table,
      String topic,
      int partition,
      long generation,
      long start,
      long end,
      String select)
      throws IOException, SQLException {
    String id = LakeLayout.compactionId(topic, partition, generation, start, end);
    String key = LAYOUT.fileKey(table, PATH, id, "snappy.parquet");
    TpLog log = log(topic, partition);
    log.append(new LogEntry.Intent(id, start, end, log.epoch(), clock, "fp", List.of(key)));
    LiveFile file = write(key, select);
    log.append(new LogEntry.Commit(id, start, end, log.epoch(), List.of(file)));
    return key;
  }

  /** What happens between a merge's intent and its commit. */
  interface Meanwhile {
    void run() throws IOException, SQLException;
  }

  /**
   * Merges live files of a TP into one file of the rows {@code select} gives; {@code meanwhile}
   * runs between its intent and its commit (a unit the writer commits while the merge runs).
   */
  String merge(
      String topic,
      int partition,
      List<String> inputs,
      String output,
      String select,
      Meanwhile meanwhile)
      throws IOException, SQLException {
    TpLog log = log(topic, partition);
    String id = output.substring(output.lastIndexOf('/') + 1, output.indexOf(".snappy"));
    log.append(
        new LogEntry.CompactIntent(id, log.epoch(), clock, inputs, List.of(output), "append"));
    LiveFile file = write(output, select);
    meanwhile.run();
    log.append(
        new LogEntry.CompactCommit(id, log.epoch(), clock, inputs, List.of(file), clock + 60_000));
    return output;
  }

  /** A file no log lists (left by a crash). */
  void orphan(String key, String select) throws SQLException, IOException {
    write(key, select);
  }

  private LiveFile write(String key, String select) throws SQLException, IOException {
    Path path = root.resolve(key);
    Files.createDirectories(path.getParent());
    try (Statement statement = duck.createStatement()) {
      statement.execute(
          "copy (" + select + ") to '" + path + "' (format parquet, compression snappy)");
    }
    long rows;
    try (Statement statement = duck.createStatement();
        var rs = statement.executeQuery("select count(*) from read_parquet('" + path + "')")) {
      rs.next();
      rows = rs.getLong(1);
    }
    clock += 1000;
    return new LiveFile(key, rows, Files.size(path), "sha", "schema", clock);
  }

  private TpLog log(String topic, int partition) throws IOException {
    TpLog log = logs.get(topic + "/" + partition);
    if (log == null) {
      log = TpLog.read(storage, LAYOUT, topic, partition);
      log.claimEpoch(LakeIdentity.establish(storage, LAYOUT, clock), "test", clock);
      logs.put(topic + "/" + partition, log);
    }
    return log;
  }

  @Override
  public void close() throws SQLException {
    duck.close();
  }
}
