package io.skippr.connect.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.FilesExpired;
import io.skippr.connect.lake.publish.FilesReplaced;
import io.skippr.connect.lake.publish.ListenerContext;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.lake.write.LakeWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction and retention through Iceberg, driven through the commit listener as the lake's
 * compaction and retention call it: a compaction is one atomic replace of its inputs by its output
 * (an overwrite, copy on write, when merge-by-key dropped rows), an expiry one delete, and each is
 * applied once however often it is told.
 */
class MaintenanceTest {
  private static final TopicPartition TP0 = new TopicPartition(IcebergLake.TOPIC, 0);

  @TempDir Path root;
  private IcebergLake lake;
  private LocalLakeStorage storage;
  private List<LiveFile> units;

  @BeforeEach
  void landThreeUnits() throws Exception {
    lake = new IcebergLake(root);
    LakeWriter writer = lake.writer(Map.of());
    writer.open(List.of(TP0));
    writer.put(IcebergLake.records(0, 0, 30));
    writer.flushAll();
    writer.stop();
    storage = new LocalLakeStorage(root.resolve("lake"));
    units = LakeManifest.liveFiles(storage).get("orders");
    assertThat(units).hasSize(3);
    assertThat(IcebergLake.positions(lake.table("orders"))).hasSize(30);
  }

  /** A listener of the writer that owns TP0 now (epoch 1, the log's newest). */
  private CommitListener listener() throws Exception {
    LakeIdentity identity = LakeIdentity.read(storage, new LakeLayout()).orElseThrow();
    return new IcebergProvider()
        .open(new ListenerContext(storage, identity, "compactor", lake.props));
  }

  /** The compaction's output: the inputs' rows (filtered) in one Parquet file, as DuckDB writes. */
  private LiveFile compact(String where) throws Exception {
    String key = "orders/partition=0/orders+0+00000000000000000000+00000000000000000029.c1.parquet";
    Path out = root.resolve("lake").resolve(key);
    StringBuilder inputs = new StringBuilder();
    for (LiveFile unit : units) {
      inputs.append(inputs.length() == 0 ? "'" : ", '");
      inputs.append(root.resolve("lake").resolve(unit.key())).append('\'');
    }
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      duck.createStatement()
          .execute(
              "COPY (SELECT * EXCLUDE (partition) FROM read_parquet(["
                  + inputs
                  + "]) WHERE "
                  + where
                  + " ORDER BY __offset) TO '"
                  + out
                  + "' (FORMAT parquet)");
    }
    long rows = "true".equals(where) ? 30 : 15;
    return new LiveFile(key, rows, Files.size(out), "sha", "duckdb");
  }

  private static long logSeq(LocalLakeStorage storage) throws Exception {
    return storage.list(new LakeLayout().logPrefix(TP0.topic(), 0)).size() - 1;
  }

  @Test
  void aCompactionIsOneAtomicReplaceAppliedOnce() throws Exception {
    LiveFile output = compact("true");
    FilesReplaced replaced =
        new FilesReplaced(
            TP0, "orders+0+compact+c1", units, List.of(output), 1, logSeq(storage), false);
    try (CommitListener listener = listener()) {
      listener.replaced(replaced);
      listener.replaced(replaced); // told twice (a retry after a crash): applied once
    }
    Table table = lake.table("orders");
    assertThat(IcebergLake.currentFiles(table))
        .containsExactly(root.resolve("lake").resolve(output.key()).toString());
    assertThat(IcebergLake.positions(table))
        .hasSize(30)
        .containsExactlyInAnyOrderElementsOf(IcebergLake.expected(1, 30));
    assertThat(table.currentSnapshot().operation()).isEqualTo("replace");
    long replaces = 0;
    for (Snapshot snapshot : table.snapshots()) {
      replaces += "replace".equals(snapshot.operation()) ? 1 : 0;
    }
    assertThat(replaces).isEqualTo(1);
  }

  @Test
  void mergeByKeyOutputOverwritesItsInputsWithoutDeleteFiles() throws Exception {
    LiveFile output = compact("__offset % 2 = 0");
    try (CommitListener listener = listener()) {
      listener.replaced(
          new FilesReplaced(
              TP0, "orders+0+merge+c1", units, List.of(output), 1, logSeq(storage), true));
    }
    Table table = lake.table("orders");
    assertThat(table.currentSnapshot().operation()).isEqualTo("overwrite");
    assertThat(IcebergLake.positions(table)).hasSize(15);
    assertThat(table.newScan().planFiles()).allSatisfy(t -> assertThat(t.deletes()).isEmpty());
  }

  @Test
  void anExpiryDeletesTheExpiredFilesOnce() throws Exception {
    FilesExpired expired =
        new FilesExpired(TP0, "orders+0+expire+1", units.subList(0, 2), 1, logSeq(storage));
    try (CommitListener listener = listener()) {
      listener.expired(expired);
      listener.expired(expired);
    }
    Table table = lake.table("orders");
    assertThat(table.currentSnapshot().operation()).isEqualTo("delete");
    assertThat(IcebergLake.positions(table))
        .containsExactlyInAnyOrder(
            "0/20", "0/21", "0/22", "0/23", "0/24", "0/25", "0/26", "0/27", "0/28", "0/29");
  }

  @Test
  void aWriterWhoseTpWasClaimedSinceRegistersNoMaintenance() throws Exception {
    LakeWriter newer = lake.writer(Map.of());
    newer.open(List.of(TP0)); // claims epoch 2
    newer.stop();
    Table before = lake.table("orders");
    int snapshots = 0;
    for (Snapshot ignored : before.snapshots()) {
      snapshots++;
    }
    try (CommitListener listener = listener()) {
      listener.expired(new FilesExpired(TP0, "orders+0+expire+1", units, 1, 3));
    }
    Table after = lake.table("orders");
    int now = 0;
    for (Snapshot ignored : after.snapshots()) {
      now++;
    }
    assertThat(now).isEqualTo(snapshots);
    assertThat(IcebergLake.positions(after)).hasSize(30);
  }
}
