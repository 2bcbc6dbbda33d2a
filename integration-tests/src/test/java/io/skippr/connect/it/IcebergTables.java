package io.skippr.connect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The Iceberg side of the Iceberg ITs: the connector's JDBC catalog on SQLite (WAL), and the two
 * readers the checks trust, Iceberg's generic reader and DuckDB over the table's current file list;
 * the lake's committed files are read from the TP logs as plain JSON.
 */
final class IcebergTables {
  static final String NAMESPACE = "lake";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path root;
  private final Map<String, String> fileIo;
  private Catalog catalog;

  /**
   * @param root where the catalog database and the local warehouse live
   * @param fileIo the FileIO properties this JVM reads the files with (Hadoop's for local disk)
   */
  IcebergTables(Path root, Map<String, String> fileIo) throws IOException {
    this.root = Files.createDirectories(root);
    this.fileIo = fileIo;
  }

  /** The connector keys of the catalog, the namespace and a short commit interval. */
  Map<String, String> connectorKeys(String warehouse, Map<String, String> catalogExtra) {
    Map<String, String> keys = new HashMap<>();
    keys.put("iceberg.enabled", "true");
    keys.put("iceberg.table.namespace", NAMESPACE);
    keys.put("iceberg.commit.interval.ms", "500");
    keys.put("iceberg.catalog.type", "jdbc");
    keys.put("iceberg.catalog.uri", uri());
    keys.put("iceberg.catalog.jdbc.journal_mode", "WAL");
    keys.put("iceberg.catalog.jdbc.busy_timeout", "30000");
    keys.put("iceberg.catalog.warehouse", warehouse);
    catalogExtra.forEach((k, v) -> keys.put("iceberg.catalog." + k, v));
    return keys;
  }

  private String uri() {
    return "jdbc:sqlite:" + root.resolve("catalog.db");
  }

  /** One catalog for the test's polls (each load reads the current metadata). */
  synchronized Catalog catalog() {
    if (catalog != null) {
      return catalog;
    }
    Map<String, String> props = new HashMap<>(fileIo);
    props.put("type", "jdbc");
    props.put("uri", uri());
    props.put("jdbc.journal_mode", "WAL");
    props.put("jdbc.busy_timeout", "30000");
    props.put("warehouse", "file:" + root.resolve("warehouse"));
    catalog = CatalogUtil.buildIcebergCatalog("iceberg", props, null);
    return catalog;
  }

  /** The table, or null while it does not exist. */
  Table table(String name) {
    try {
      return catalog().loadTable(TableIdentifier.of(NAMESPACE, name));
    } catch (NoSuchTableException e) {
      return null;
    }
  }

  /** How many rows Iceberg's reader reads, or -1 while the table does not exist. */
  long rows(String name) {
    Table table = table(name);
    try {
      return table == null ? -1 : positions(table).size();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** What Iceberg's reader sees now, for a failed wait's message. */
  String describe(String name) {
    try {
      return rows(name) + " row(s)";
    } catch (RuntimeException e) {
      return "unreadable: " + e;
    }
  }

  /**
   * Every row's {@code partition/offset} as Iceberg's reader reads the table (with the name
   * mapping).
   */
  static List<String> positions(Table table) throws IOException {
    return MappedReader.positions(table);
  }

  /** The locations of the table's current data files, as the table lists them. */
  static List<String> currentFiles(Table table) throws IOException {
    List<String> files = new ArrayList<>();
    if (table.currentSnapshot() == null) {
      return files;
    }
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file().location());
      }
    }
    return files;
  }

  /** Every row's {@code partition/offset} as DuckDB reads the given local files. */
  static List<String> duckPositions(List<Path> files) throws Exception {
    List<String> positions = new ArrayList<>();
    if (files.isEmpty()) {
      return positions;
    }
    StringBuilder list = new StringBuilder();
    for (Path file : files) {
      list.append(list.length() == 0 ? "'" : ", '").append(file).append('\'');
    }
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duck.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT __partition, __offset FROM read_parquet([" + list + "])")) {
      while (rows.next()) {
        positions.add(rows.getInt(1) + "/" + rows.getLong(2));
      }
    }
    return positions;
  }

  /** {@code p/o} for each partition and offset below the counts. */
  static Set<String> expected(int partitions, long perPartition) {
    Set<String> expected = new TreeSet<>();
    for (int p = 0; p < partitions; p++) {
      for (long o = 0; o < perPartition; o++) {
        expected.add(p + "/" + o);
      }
    }
    return expected;
  }

  /** The keys of the files the TP logs of a local lake list in commit entries (no compaction). */
  static Set<String> committedKeys(Path lake, String topic) throws IOException {
    Set<String> keys = new TreeSet<>();
    Path logs = lake.resolve("_skippr/log").resolve(topic);
    try (Stream<Path> files = Files.walk(logs)) {
      for (Path entry : files.filter(f -> f.toString().endsWith(".json")).toList()) {
        JsonNode node = JSON.readTree(entry.toFile());
        if (node.path("kind").asText().equals("commit")) {
          node.path("files").forEach(f -> keys.add(f.path("key").asText()));
        }
      }
    }
    return keys;
  }

  /** Every snapshot of the table, oldest first. */
  static List<Snapshot> snapshots(Table table) {
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    snapshots.sort((a, b) -> Long.compare(a.sequenceNumber(), b.sequenceNumber()));
    return snapshots;
  }

  /** The keys of the files the lake's log lists as live for the table (a local lake). */
  static TreeSet<String> liveKeys(Path lake, String table) {
    TreeSet<String> keys = new TreeSet<>();
    try {
      io.skippr.connect.lake.log.LakeManifest.liveFiles(
              new io.skippr.connect.lake.storage.LocalLakeStorage(lake))
          .getOrDefault(table, List.of())
          .forEach(file -> keys.add(file.key()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return keys;
  }

  /** The table's current files as keys of the local lake; empty while there is no table. */
  static TreeSet<String> tableKeys(Table table, Path lake) {
    TreeSet<String> keys = new TreeSet<>();
    if (table == null) {
      return keys;
    }
    try {
      for (String file : currentFiles(table)) {
        keys.add(lake.relativize(Path.of(file.replaceFirst("^file:", ""))).toString());
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return keys;
  }
}
