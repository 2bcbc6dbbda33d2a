package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.lake.write.LakeWriter;
import io.skippr.connect.lake.write.SourcePositions;
import io.skippr.connect.lake.write.WriterParts;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * A local lake written by the real lake writer (Parquet files, TP logs) with Iceberg registration
 * on, a JDBC catalog on SQLite in WAL journal mode, and readers of the table: Iceberg's generic
 * reader and DuckDB over the table's current file list.
 */
final class IcebergLake {
  static final String TOPIC = "orders";

  /** Optional, with a required field: a reader must map nested fields by name too. */
  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("address")
          .optional()
          .field("city", Schema.STRING_SCHEMA)
          .field("zip", Schema.OPTIONAL_INT32_SCHEMA)
          .build();

  static final Schema VALUE =
      SchemaBuilder.struct()
          .name("order")
          .field("id", Schema.INT64_SCHEMA)
          .field("region", Schema.STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("at", Timestamp.SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("address", ADDRESS)
          .build();

  final Path root;
  final Map<String, String> props = new HashMap<>();

  IcebergLake(Path root) {
    this.root = root;
    props.put("name", "iceberg-lake");
    props.put("topics", TOPIC);
    props.put("topics.dir", root.resolve("lake").toString());
    props.put("include.kafka.metadata", "true");
    props.put("flush.size", "10");
    props.put("store.rocksdb.path", root.resolve("state").toString());
    props.put("iceberg.enabled", "true");
    props.put("iceberg.table.namespace", "lake.raw");
    props.put("iceberg.commit.interval.ms", "50");
    catalogProps().forEach((k, v) -> props.put("iceberg.catalog." + k, v));
  }

  /** The JDBC catalog on SQLite, as the connector's iceberg.catalog.* keys give it. */
  Map<String, String> catalogProps() {
    Map<String, String> catalog = new HashMap<>();
    catalog.put("type", "jdbc");
    catalog.put("uri", "jdbc:sqlite:" + root.resolve("catalog.db"));
    catalog.put("jdbc.journal_mode", "WAL");
    catalog.put("jdbc.busy_timeout", "30000");
    catalog.put("warehouse", "file:" + root.resolve("warehouse"));
    catalog.put("io-impl", io.skippr.connect.iceberg.io.LocalFileIO.class.getName());
    return catalog;
  }

  /** A writer as a task of the connector runs it; an empty override removes the key. */
  LakeWriter writer(Map<String, String> overrides) {
    Map<String, String> all = new HashMap<>(props);
    overrides.forEach(
        (key, value) -> {
          if (value.isEmpty()) {
            all.remove(key);
          } else {
            all.put(key, value);
          }
        });
    LakeSinkConfig config = new LakeSinkConfig(all);
    LakeStorage storage = config.storage().open();
    WriterParts parts = WriterParts.of(config, storage, ProgressMirror.NONE, SourcePositions.NONE);
    return new LakeWriter(config.writerSettings(config.ownerName()), parts, new Context());
  }

  static SinkRecord record(int partition, long offset) {
    Struct value =
        new Struct(VALUE)
            .put("id", partition * 1_000_000L + offset)
            .put("region", "r" + offset % 3)
            .put("amount", offset * 1.5)
            .put("at", new java.util.Date(1_700_000_000_000L + offset * 1000))
            .put("note", offset % 4 == 0 ? null : "n" + offset)
            .put(
                "address",
                offset % 5 == 0
                    ? null
                    : new Struct(ADDRESS).put("city", "c" + offset % 7).put("zip", (int) offset));
    return new SinkRecord(
        TOPIC,
        partition,
        Schema.STRING_SCHEMA,
        "k" + offset,
        VALUE,
        value,
        offset,
        1_700_000_000_000L + offset,
        org.apache.kafka.common.record.TimestampType.CREATE_TIME);
  }

  static List<SinkRecord> records(int partition, long from, long to) {
    List<SinkRecord> records = new ArrayList<>();
    for (long o = from; o < to; o++) {
      records.add(record(partition, o));
    }
    return records;
  }

  Catalog catalog() {
    return CatalogUtil.buildIcebergCatalog("iceberg", catalogProps(), null);
  }

  Table table(String name) {
    return catalog().loadTable(TableIdentifier.of("lake", "raw", name));
  }

  /**
   * Every row's (partition, offset) as Iceberg's reader sees it (with the name mapping), with
   * repeats.
   */
  static List<String> positions(Table table) throws Exception {
    return MappedReader.positions(table);
  }

  /** The table's current data files as local paths. */
  static List<String> currentFiles(Table table) throws Exception {
    List<String> files = new ArrayList<>();
    if (table.currentSnapshot() == null) {
      return files;
    }
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file().location().replaceFirst("^file:", ""));
      }
    }
    return files;
  }

  /** Every row's (partition, offset) as DuckDB reads the table's current files. */
  static List<String> duckPositions(List<String> files) throws Exception {
    List<String> positions = new ArrayList<>();
    if (files.isEmpty()) {
      return positions;
    }
    StringBuilder list = new StringBuilder();
    for (String file : files) {
      list.append(list.length() == 0 ? "" : ", ").append('\'').append(file).append('\'');
    }
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duck.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT __partition, __offset FROM read_parquet(["
                    + list
                    + "], union_by_name=true)")) {
      while (rows.next()) {
        positions.add(rows.getInt(1) + "/" + rows.getLong(2));
      }
    }
    return positions;
  }

  /** {@code p/o} for every partition below {@code partitions} and offset below {@code count}. */
  static Set<String> expected(int partitions, long count) {
    Set<String> expected = new HashSet<>();
    for (int p = 0; p < partitions; p++) {
      for (long o = 0; o < count; o++) {
        expected.add(p + "/" + o);
      }
    }
    return expected;
  }

  static List<TopicPartition> tps(int partitions) {
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      tps.add(new TopicPartition(TOPIC, p));
    }
    return tps;
  }

  /** The task context a writer needs: seeks are ignored (the tests deliver from the start). */
  static final class Context implements SinkTaskContext {
    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {}

    @Override
    public void offset(TopicPartition tp, long offset) {}

    @Override
    public void timeout(long timeoutMs) {}

    @Override
    public Set<TopicPartition> assignment() {
      return Set.of();
    }

    @Override
    public void pause(TopicPartition... partitions) {}

    @Override
    public void resume(TopicPartition... partitions) {}

    @Override
    public void requestCommit() {}

    @Override
    public PluginMetrics pluginMetrics() {
      return null;
    }
  }
}
