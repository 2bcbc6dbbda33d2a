package io.skippr.connect.cli.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader on a real lake directory written through the sink's own log. */
class LakeReaderTest {
  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();

  @Test
  void foldsEveryUnitPerGenerationThePendingUnitAndTheLiveFiles() throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    TpLog log = TpLog.read(storage, layout, "t", 0);
    log.claimEpoch(Lakes.LAKE, "test", 1L);
    commit(storage, log, 0, 0, 9);
    log.checkpointIfDue(1);
    commit(storage, log, 0, 10, 19);
    log.append(new LogEntry.Generation(log.epoch(), 1, 40, 19, "moved on"));
    commit(storage, log, 1, 40, 49);
    String planned = file(1, 50, 59);
    log.append(
        new LogEntry.Intent(id(1, 50, 59), 50, 59, log.epoch(), 1L, "cfg", List.of(planned)));
    write(storage, planned);
    write(storage, file(0, 0, 4)); // an orphan

    LakeReader reader = new LakeReader(storage);
    LakeReader.Snapshot snapshot = reader.read(null);

    assertThat(snapshot.tables()).containsExactly("t");
    TpLake lake = snapshot.logs().get(0);
    assertThat(lake.generations())
        .containsExactly(
            new TpLake.Generation(
                0,
                -1,
                -1,
                null,
                List.of(
                    new TpLake.Unit(id(0, 0, 9), 0, 9), new TpLake.Unit(id(0, 10, 19), 10, 19))),
            new TpLake.Generation(
                1, 40, 19, "moved on", List.of(new TpLake.Unit(id(1, 40, 49), 40, 49))));
    assertThat(lake.pending())
        .isEqualTo(new TpLake.Pending(id(1, 50, 59), 50, 59, List.of(planned)));
    assertThat(lake.liveFiles())
        .containsExactlyInAnyOrder(file(0, 0, 9), file(0, 10, 19), file(1, 40, 49));
    assertThat(lake.resume()).isEqualTo(50);
    assertThat(lake.missingEntries()).isEmpty();
    assertThat(reader.stored(snapshot.tables()))
        .containsExactlyInAnyOrder(
            file(0, 0, 9), file(0, 10, 19), file(1, 40, 49), planned, file(0, 0, 4));
  }

  @Test
  void aUnitCommittedAfterTheLogWasReadIsInFlightNotAnOrphan() throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    TpLog log = TpLog.read(storage, layout, "t", 0);
    log.claimEpoch(Lakes.LAKE, "test", 1L);
    commit(storage, log, 0, 0, 9);
    LakeReader reader = new LakeReader(storage);
    LakeReader.Snapshot snapshot = reader.read(null);

    commit(storage, log, 0, 10, 19); // while the audit runs
    write(storage, file(0, 0, 4));
    Set<String> stored = reader.stored(snapshot.tables());

    assertThat(reader.reread(snapshot.logs(), stored).changed()).containsExactly(file(0, 10, 19));
  }

  @Test
  void entriesMissingBelowTheNewestAreListed() throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    TpLog log = TpLog.read(storage, layout, "t", 0);
    log.claimEpoch(Lakes.LAKE, "test", 1L);
    commit(storage, log, 0, 0, 9);
    commit(storage, log, 0, 10, 19);
    Files.delete(root.resolve(layout.entryKey("t", 0, 1)));

    TpLake lake = new LakeReader(storage).read(null).logs().get(0);

    assertThat(lake.missingEntries()).containsExactly(1L);
    assertThat(lake.generations().get(0).units())
        .extracting(TpLake.Unit::start)
        .containsExactly(0L, 10L);
  }

  private static void commit(LakeStorage storage, TpLog log, long generation, long start, long end)
      throws IOException {
    String key = file(generation, start, end);
    String id = id(generation, start, end);
    log.append(new LogEntry.Intent(id, start, end, log.epoch(), 1L, "cfg", List.of(key)));
    write(storage, key);
    log.append(
        new LogEntry.Commit(
            id,
            start,
            end,
            log.epoch(),
            List.of(new LiveFile(key, end - start + 1, 1, "00", "s"))));
  }

  private static String id(long generation, long start, long end) {
    return LakeLayout.compactionId("t", 0, generation, start, end);
  }

  private static String file(long generation, long start, long end) {
    return "t/" + id(generation, start, end) + ".snappy.parquet";
  }

  private static void write(LakeStorage storage, String key) throws IOException {
    storage.createIfAbsent(key, "x".getBytes(StandardCharsets.UTF_8));
  }
}
