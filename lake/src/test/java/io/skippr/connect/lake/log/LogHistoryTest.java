package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogHistoryTest {
  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();

  @Test
  void readsEveryEntryFromTheFirstEvenPastACheckpoint() throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    TpLog log = TpLog.read(storage, layout, "cpu", 0);
    log.claimEpoch(TpLogTest.LAKE, "test", 1L);
    commit(log, 0, 9, "cpu/cpu+0+00000000000000000000+00000000000000000009.parquet");
    log.checkpointIfDue(1);
    commit(log, 10, 14, "cpu/cpu+0+00000000000000000010+00000000000000000014.parquet");
    log.append(new LogEntry.Generation(log.epoch(), 1, 100, 14, "test"));

    LogHistory history = LogHistory.read(storage, layout, "cpu", 0);

    assertThat(history.entries())
        .extracting(LogHistory.Numbered::seq)
        .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
    assertThat(history.entries())
        .extracting(n -> n.entry().getClass().getSimpleName())
        .containsExactly(
            "Epoch", "Intent", "Commit", "Checkpoint", "Intent", "Commit", "Generation");
    // The same state a writer reads from the newest checkpoint on.
    LogState tail = TpLog.read(storage, layout, "cpu", 0).state();
    assertThat(history.state().liveFiles()).isEqualTo(tail.liveFiles());
    assertThat(history.state().generation()).isEqualTo(1);
    assertThat(history.state().resumeOffset()).hasValue(100);
  }

  @Test
  void listsTheLakesTpsInNumericPartitionOrder() throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    for (int partition : new int[] {10, 2, 0}) {
      TpLog.read(storage, layout, "orders", partition).claimEpoch(TpLogTest.LAKE, "test", 1L);
    }
    TpLog.read(storage, layout, "sync~files", 0).claimEpoch(TpLogTest.LAKE, "test", 1L);
    storage.createIfAbsent("_skippr/log/orders/notes.txt", "x".getBytes(StandardCharsets.UTF_8));

    assertThat(LogHistory.partitions(storage, layout))
        .containsExactly(
            new LogHistory.Tp("orders", 0),
            new LogHistory.Tp("orders", 2),
            new LogHistory.Tp("orders", 10),
            new LogHistory.Tp("sync~files", 0));
  }

  @Test
  void anEntryOfAnUnknownFormatIsRefusedNamingTheTp() throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    storage.createIfAbsent(
        layout.entryKey("cpu", 3, 0),
        "{\"version\":99,\"kind\":\"epoch\",\"epoch\":1}".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> LogHistory.read(storage, layout, "cpu", 3))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("cpu-3")
        .hasMessageContaining("version 99");
  }

  private static void commit(TpLog log, long start, long end, String file) throws IOException {
    String id = LakeLayout.compactionId(log.topic(), log.partition(), start, end);
    log.append(new LogEntry.Intent(id, start, end, log.epoch(), 1L, "cfg", List.of(file)));
    log.append(
        new LogEntry.Commit(
            id, start, end, log.epoch(), List.of(new LiveFile(file, 1, 1, "00", "s"))));
  }
}
