package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LakeManifestTest {
  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();

  @Test
  void listsCommittedFilesPerTableAndLeavesOutOrphansAndPendingUnits() throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    TpLog cpu = claimed(storage, "cpu", 0);
    commit(
        storage,
        cpu,
        0,
        9,
        10,
        "cpu/dt=2026-01-01/cpu+0+00000000000000000000+00000000000000000009.parquet");
    commit(
        storage,
        cpu,
        10,
        14,
        5,
        "cpu/dt=2026-01-02/cpu+0+00000000000000000010+00000000000000000014.parquet");
    // A unit being published: its file is on disk, its commit is not in the log yet.
    LogEntry.Intent pending =
        intent(
            cpu,
            15,
            19,
            "cpu/dt=2026-01-02/cpu+0+00000000000000000015+00000000000000000019.parquet");
    cpu.append(pending);
    write(storage, pending.files().get(0));
    // Left by a crashed writer: named for the TP, listed nowhere.
    write(storage, "cpu/dt=2026-01-01/cpu+0+00000000000000000000+00000000000000000004.parquet");

    TpLog orders = claimed(storage, "orders", 1);
    commit(
        storage,
        orders,
        0,
        2,
        3,
        "orders/dt=2026-01-01/orders+1+00000000000000000000+00000000000000000002.parquet");
    orders.checkpointIfDue(1);
    commit(
        storage,
        orders,
        3,
        3,
        1,
        "orders/dt=2026-01-01/orders+1+00000000000000000003+00000000000000000003.parquet");

    Map<String, List<LiveFile>> live = LakeManifest.liveFiles(storage);

    assertThat(live).containsOnlyKeys("cpu", "orders");
    assertThat(live.get("cpu"))
        .extracting(LiveFile::key, LiveFile::rows)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "cpu/dt=2026-01-01/cpu+0+00000000000000000000+00000000000000000009.parquet", 10L),
            org.assertj.core.groups.Tuple.tuple(
                "cpu/dt=2026-01-02/cpu+0+00000000000000000010+00000000000000000014.parquet", 5L));
    assertThat(live.get("orders")).extracting(LiveFile::rows).containsExactly(3L, 1L);
  }

  @Test
  void asAFunctionGivesAbsolutePathsAndRows() throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    TpLog log = claimed(storage, "demo.cpu", 0);
    String key = "demo.cpu/demo.cpu+0+00000000000000000000+00000000000000000006.parquet";
    commit(storage, log, 0, 6, 7, key);

    Map<String, Map<Path, Long>> live = new LakeManifest().apply(root);

    assertThat(live).containsOnlyKeys("demo.cpu");
    assertThat(live.get("demo.cpu"))
        .containsExactly(Map.entry(root.toAbsolutePath().resolve(key), 7L));
  }

  @Test
  void aLakeWithoutLogsHasNoLiveFiles() throws IOException {
    write(new LocalLakeStorage(root), "t/t+0+00000000000000000000+00000000000000000000.parquet");
    assertThat(LakeManifest.liveFiles(new LocalLakeStorage(root))).isEmpty();
  }

  private TpLog claimed(LakeStorage storage, String topic, int partition) throws IOException {
    TpLog log = TpLog.read(storage, layout, topic, partition);
    log.claimEpoch(TpLogTest.LAKE, "test", 1L);
    return log;
  }

  private static LogEntry.Intent intent(TpLog log, long start, long end, String file) {
    return new LogEntry.Intent(
        LakeLayout.compactionId(log.topic(), log.partition(), start, end),
        start,
        end,
        log.epoch(),
        1L,
        "cfg",
        List.of(file));
  }

  private static void commit(
      LakeStorage storage, TpLog log, long start, long end, long rows, String file)
      throws IOException {
    LogEntry.Intent intent = intent(log, start, end, file);
    log.append(intent);
    write(storage, file);
    log.append(
        new LogEntry.Commit(
            intent.id(), start, end, log.epoch(), List.of(new LiveFile(file, rows, 1, "00", "s"))));
  }

  private static void write(LakeStorage storage, String key) throws IOException {
    storage.createIfAbsent(key, "x".getBytes(StandardCharsets.UTF_8));
  }
}
