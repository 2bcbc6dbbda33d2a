package io.skippr.connect.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.lake.write.LakeWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real lake writer with Iceberg registration on a JDBC catalog (SQLite, WAL): every committed
 * unit is registered once, readable through Iceberg's reader and through the table's file list with
 * DuckDB, also when the registering writer died, lost its TPs, or lost the catalog's answer.
 */
class IcebergRegistrationTest {
  @TempDir Path root;

  private static void write(LakeWriter writer, int partitions, long from, long to) {
    for (int p = 0; p < partitions; p++) {
      List<org.apache.kafka.connect.sink.SinkRecord> records = IcebergLake.records(p, from, to);
      for (int i = 0; i < records.size(); i += 7) {
        writer.put(records.subList(i, Math.min(records.size(), i + 7)));
      }
    }
    writer.flushAll();
  }

  @Test
  void everyCommittedUnitIsRegisteredOnceAndEveryReaderSeesEachRecordOnce() throws Exception {
    IcebergLake lake = new IcebergLake(root);
    LakeWriter writer = lake.writer(Map.of());
    writer.open(IcebergLake.tps(3));
    write(writer, 3, 0, 95);
    writer.stop();
    List<LiveFile> live =
        LakeManifest.liveFiles(new LocalLakeStorage(root.resolve("lake"))).get("orders");
    assertThat(live.stream().mapToLong(LiveFile::rows).sum()).as("rows in the lake").isEqualTo(285);

    Table table = lake.table("orders");
    Set<String> expected = IcebergLake.expected(3, 95);
    List<String> seen = IcebergLake.positions(table);
    assertThat(seen).hasSize(expected.size());
    assertThat(new TreeSet<>(seen)).isEqualTo(new TreeSet<>(expected));
    List<String> files = IcebergLake.currentFiles(table);
    List<String> duck = IcebergLake.duckPositions(files);
    assertThat(duck).hasSize(expected.size());
    assertThat(new TreeSet<>(duck)).isEqualTo(new TreeSet<>(expected));

    // The live files of the lake log are exactly the table's, each once.
    assertThat(files).doesNotHaveDuplicates();
    assertThat(new TreeSet<>(files))
        .isEqualTo(
            live.stream()
                .map(f -> root.resolve("lake").resolve(f.key()).toString())
                .collect(Collectors.toCollection(TreeSet::new)));
    // Data columns come back through the name mapping (no field ids in the files).
    assertThat(table.properties()).containsKey(TableProperties.DEFAULT_NAME_MAPPING);
    List<Record> found = new ArrayList<>();
    MappedReader.read(
        table,
        row -> {
          if (row.getField("id").equals(1_000_042L)) {
            found.add(row.copy());
          }
        });
    assertThat(found).hasSize(1);
    Record row = found.get(0);
    assertThat(row.getField("region")).isEqualTo("r0");
    assertThat(row.getField("amount")).isEqualTo(63.0);
    assertThat(row.getField("note")).isEqualTo("n42");
    Record address = (Record) row.getField("address");
    assertThat(address.getField("city")).isEqualTo("c0");
    assertThat(address.getField("zip")).isEqualTo(42);
    for (Snapshot snapshot : table.snapshots()) {
      assertThat(snapshot.summary()).containsKeys(SnapshotMarks.IDS, SnapshotMarks.RANGES);
    }
  }

  @Test
  void theNextOwnerRegistersWhatADeadWriterCommittedButDidNotRegister() throws Exception {
    IcebergLake lake = new IcebergLake(root);
    // Registers nothing: its interval outlasts the test, as a killed worker would.
    LakeWriter dead = lake.writer(Map.of("iceberg.commit.interval.ms", "3600000"));
    dead.open(IcebergLake.tps(2));
    write(dead, 2, 0, 40);

    LakeWriter next = lake.writer(Map.of());
    next.open(IcebergLake.tps(2));
    write(next, 2, 40, 63);
    next.stop();
    Table table = lake.table("orders");
    assertThat(IcebergLake.positions(table))
        .hasSize(126)
        .containsExactlyInAnyOrderElementsOf(IcebergLake.expected(2, 63));
    int snapshots = count(table.snapshots());

    // The old writer wakes up and stops: its TPs are claimed by a newer writer, so it registers
    // nothing of what it still has queued.
    dead.stop();
    table.refresh();
    assertThat(count(table.snapshots())).isEqualTo(snapshots);
    assertThat(IcebergLake.positions(table)).hasSize(126);
  }

  @Test
  void aLostAnswerOfTheCatalogIsRetriedWithoutADuplicate() throws Exception {
    IcebergLake lake = new IcebergLake(root);
    FlakyJdbcCatalog.LOST_ANSWERS.set(1);
    LakeWriter writer =
        lake.writer(
            Map.of(
                "iceberg.catalog.catalog-impl",
                FlakyJdbcCatalog.class.getName(),
                "iceberg.catalog.type",
                ""));
    writer.open(IcebergLake.tps(2));
    write(writer, 2, 0, 50);
    writer.stop();
    assertThat(FlakyJdbcCatalog.LOST_ANSWERS.get()).isZero();
    Table table = lake.table("orders");
    assertThat(IcebergLake.positions(table))
        .hasSize(100)
        .containsExactlyInAnyOrderElementsOf(IcebergLake.expected(2, 50));
  }

  @Test
  void partitionSpecsFollowThePartitioner() throws Exception {
    IcebergLake lake = new IcebergLake(root);
    lake.props.put("partitioner.class", "field");
    lake.props.put("partition.field.name", "region");
    LakeWriter writer = lake.writer(Map.of());
    writer.open(IcebergLake.tps(1));
    write(writer, 1, 0, 30);
    writer.stop();
    Table table = lake.table("orders");
    assertThat(table.spec().fields()).hasSize(1);
    assertThat(table.spec().fields().get(0).transform().isIdentity()).isTrue();
    List<String> r1 = new ArrayList<>();
    MappedReader.read(
        table,
        row -> {
          if ("r1".equals(row.getField("region"))) {
            r1.add(String.valueOf(row.getField("__offset")));
          }
        });
    assertThat(r1).hasSize(10);
    assertThat(table.newScan().filter(Expressions.equal("region", "r1")).planFiles())
        .allSatisfy(
            task -> assertThat(task.file().partition().get(0, String.class)).isEqualTo("r1"));

    IcebergLake daily = new IcebergLake(root.resolve("daily"));
    daily.props.put("partitioner.class", "time");
    daily.props.put("timestamp.extractor", "RecordField");
    daily.props.put("timestamp.field", "at");
    daily.props.put("partition.duration.ms", "86400000");
    daily.props.put("path.format", "'dt'=YYYY-MM-dd");
    daily.props.put("timezone", "UTC");
    LakeWriter days = daily.writer(Map.of());
    days.open(IcebergLake.tps(1));
    write(days, 1, 0, 20);
    days.stop();
    Table byDay = daily.table("orders");
    assertThat(byDay.spec().fields().get(0).transform().toString()).isEqualTo("day");
    assertThat(IcebergLake.positions(byDay)).hasSize(20);
  }

  @Test
  void schemaEvolutionReachesTheTableBeforeItsFiles() throws Exception {
    IcebergLake lake = new IcebergLake(root);
    LakeWriter writer = lake.writer(Map.of());
    writer.open(IcebergLake.tps(1));
    write(writer, 1, 0, 20);
    org.apache.kafka.connect.data.Schema wider =
        org.apache.kafka.connect.data.SchemaBuilder.struct()
            .name("order")
            .field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
            .field("region", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
            .field("amount", org.apache.kafka.connect.data.Schema.FLOAT64_SCHEMA)
            .field("at", org.apache.kafka.connect.data.Timestamp.SCHEMA)
            .field("note", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
            .field("address", IcebergLake.ADDRESS)
            .field("channel", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    List<org.apache.kafka.connect.sink.SinkRecord> later = new java.util.ArrayList<>();
    for (long o = 20; o < 30; o++) {
      org.apache.kafka.connect.sink.SinkRecord r = IcebergLake.record(0, o);
      org.apache.kafka.connect.data.Struct old = (org.apache.kafka.connect.data.Struct) r.value();
      org.apache.kafka.connect.data.Struct value = new org.apache.kafka.connect.data.Struct(wider);
      for (org.apache.kafka.connect.data.Field f : IcebergLake.VALUE.fields()) {
        value.put(f.name(), old.get(f));
      }
      value.put("channel", "web");
      later.add(r.newRecord(r.topic(), 0, r.keySchema(), r.key(), wider, value, r.timestamp()));
    }
    writer.put(later);
    writer.flushAll();
    writer.stop();
    Table table = lake.table("orders");
    assertThat(table.schema().findField("channel")).isNotNull();

    assertThat(table.properties().get(TableProperties.DEFAULT_NAME_MAPPING))
        .contains("\"channel\"");
    long web = 0;
    List<String> files = IcebergLake.currentFiles(table);
    StringBuilder list = new StringBuilder();
    files.forEach(f -> list.append(list.length() == 0 ? "'" : ", '").append(f).append('\''));
    try (java.sql.Connection duck = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.ResultSet rows =
            duck.createStatement()
                .executeQuery(
                    "SELECT count(*) FILTER (WHERE channel = 'web') FROM read_parquet(["
                        + list
                        + "], union_by_name=true)")) {
      rows.next();
      web = rows.getLong(1);
    }
    assertThat(web).isEqualTo(10);
    assertThat(IcebergLake.positions(table)).hasSize(30);
  }

  private static int count(Iterable<?> items) {
    int n = 0;
    for (Object ignored : items) {
      n++;
    }
    return n;
  }
}
