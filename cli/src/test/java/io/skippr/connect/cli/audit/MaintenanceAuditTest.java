package io.skippr.connect.cli.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.skippr.connect.cli.audit.Finding.Kind;
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
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit of a lake that maintenance changed, written through the sink's own log: merged files
 * hold their inputs' offsets without overlapping them, retired inputs on storage (in their grace)
 * are not orphans and retired inputs already deleted are not missing, a merge under way writes
 * files in flight, and files retention expired are reported as such, not as gaps.
 */
class MaintenanceAuditTest {
  private static final String MERGED = "t/t+0+00000000000000000000+00000000000000000029+m0abc";
  private static final String NEXT_MERGE = "t/t+0+00000000000000000030+00000000000000000049+m0def";

  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();
  private final FakeKafka kafka = new FakeKafka().records("t", 0, 0, 49);
  private LakeStorage storage;
  private TpLog log;

  @BeforeEach
  void mergeThreeUnits() throws IOException {
    storage = new LocalLakeStorage(root);
    log = TpLog.read(storage, layout, "t", 0);
    log.claimEpoch(Lakes.LAKE, "test", 1L);
    commit(0, 9);
    commit(10, 19);
    commit(20, 29);
    List<String> inputs = List.of(file(0, 9), file(10, 19), file(20, 29));
    log.append(
        new LogEntry.CompactIntent(
            "t+0+0+29+m0abc", log.epoch(), 5L, inputs, List.of(parquet(MERGED)), "append"));
    write(parquet(MERGED));
    log.append(
        new LogEntry.CompactCommit(
            "t+0+0+29+m0abc",
            log.epoch(),
            6L,
            inputs,
            List.of(new LiveFile(parquet(MERGED), 30, 1, "00", "s")),
            600_006L));
    // The grace passed for the last input: deleted, and the deletion recorded.
    storage.delete(file(20, 29));
    log.append(new LogEntry.Purge(log.epoch(), List.of(file(20, 29))));
  }

  @Test
  void aMergedLakeIsCleanWhileRetiredInputsWaitOutTheirGraceOrAreGone() throws IOException {
    // Deleted after the grace, but the purge entry was not written yet (a crash in between).
    storage.delete(file(10, 19));

    AuditReport report = audit(30L);

    assertThat(report.exitCode()).as(ReportText.of(report)).isZero();
    TpReport tp = report.partitions().get(0);
    assertThat(tp.status()).as(ReportText.of(report)).isEqualTo(Status.CLEAN);
    assertThat(tp.findings()).isEmpty();
    assertThat(tp.generations())
        .as("a merge is no unit: the offsets stay tiled by the units")
        .containsExactly(new TpReport.Range(0, 0L, 29L, 3, null));
    assertThat(tp.liveFiles()).isEqualTo(1);
    assertThat(tp.merges()).isEqualTo(1);
    assertThat(tp.retiredFiles()).as("inputs not yet purged").isEqualTo(2);
    assertThat(ReportText.of(report)).contains("1 file(s), 1 merge(s), 2 retired");
  }

  @Test
  void aMergeUnderWayWritesFilesInFlightAndExpiredFilesAreNoGap() throws IOException {
    commit(30, 39);
    commit(40, 49);
    List<String> inputs = List.of(file(30, 39), file(40, 49));
    log.append(
        new LogEntry.CompactIntent(
            "t+0+30+49+m0def", log.epoch(), 7L, inputs, List.of(parquet(NEXT_MERGE)), "append"));
    write(parquet(NEXT_MERGE));
    log.append(
        new LogEntry.Expire(
            log.epoch(), 8L, List.of(parquet(MERGED)), "older than retention.ms=86400000"));
    storage.delete(parquet(MERGED));
    log.append(new LogEntry.Purge(log.epoch(), List.of(parquet(MERGED))));

    AuditReport report = audit(50L);

    assertThat(report.exitCode()).as(ReportText.of(report)).isZero();
    TpReport tp = report.partitions().get(0);
    assertThat(tp.findings())
        .extracting(Finding::kind, Finding::start, Finding::end, Finding::file)
        .containsExactlyInAnyOrder(
            tuple(Kind.MERGING, null, null, null),
            tuple(Kind.RETENTION_EXPIRED, 0L, 29L, null),
            tuple(Kind.IN_FLIGHT, null, null, parquet(NEXT_MERGE)));
    assertThat(tp.status()).isEqualTo(Status.CLEAN);
    assertThat(tp.generations()).containsExactly(new TpReport.Range(0, 0L, 49L, 5, null));
    assertThat(tp.liveFiles()).isEqualTo(2);
  }

  @Test
  void aMergedFileStorageLacksIsMissing() throws IOException {
    storage.delete(parquet(MERGED));

    AuditReport report = audit(30L);

    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.partitions().get(0).findings())
        .extracting(Finding::kind, Finding::file)
        .containsExactly(tuple(Kind.MISSING_FILE, parquet(MERGED)));
  }

  @Test
  void aLiveFileMergedAndDeletedWhileTheAuditRanIsNotMissing() throws IOException {
    LakeReader reader = new LakeReader(storage);
    LakeReader.Snapshot snapshot = reader.read(null);
    // While the audit runs: the merged file is merged again, its grace is 0, it is deleted.
    String again = "t/t+0+00000000000000000000+00000000000000000029+m0fed";
    write(parquet(again));
    log.append(
        new LogEntry.CompactIntent(
            "t+0+0+29+m0fed",
            log.epoch(),
            9L,
            List.of(parquet(MERGED)),
            List.of(parquet(again)),
            "append"));
    log.append(
        new LogEntry.CompactCommit(
            "t+0+0+29+m0fed",
            log.epoch(),
            10L,
            List.of(parquet(MERGED)),
            List.of(new LiveFile(parquet(again), 30, 1, "00", "s")),
            10L));
    storage.delete(parquet(MERGED));
    Set<String> stored = reader.stored(snapshot.tables());

    LakeReader.Reread reread = reader.reread(snapshot.logs(), stored);

    assertThat(reread.noLongerLive()).containsExactly(parquet(MERGED));
    assertThat(reread.changed()).containsExactly(parquet(again));
    FileAudit.Result files = FileAudit.audit(snapshot.logs(), stored, reread, Set.of());
    assertThat(files.of(new TopicPartition("t", 0)))
        .extracting(Finding::kind, Finding::file)
        .containsExactly(tuple(Kind.IN_FLIGHT, parquet(again)));
  }

  private AuditReport audit(long group) throws IOException {
    LakeReader reader = new LakeReader(storage);
    LakeReader.Snapshot snapshot = reader.read(null);
    Set<String> stored = reader.stored(snapshot.tables());
    TopicPartition tp = new TopicPartition("t", 0);
    return LakeAudit.audit(
        new LakeAudit.Inputs(
            "c",
            "connect-c",
            reader.location(),
            null,
            snapshot.logs(),
            Map.of(tp, new KafkaTp(0, group, group)),
            Map.of(tp, group),
            stored,
            reader.reread(snapshot.logs(), stored),
            LakeAudit.Damage.NONE),
        kafka);
  }

  private void commit(long start, long end) throws IOException {
    String key = file(start, end);
    String id = LakeLayout.compactionId("t", 0, 0, start, end);
    log.append(new LogEntry.Intent(id, start, end, log.epoch(), 1L, "cfg", List.of(key)));
    write(key);
    log.append(
        new LogEntry.Commit(
            id,
            start,
            end,
            log.epoch(),
            List.of(new LiveFile(key, end - start + 1, 1, "00", "s"))));
  }

  private static String file(long start, long end) {
    return "t/" + LakeLayout.compactionId("t", 0, 0, start, end) + ".snappy.parquet";
  }

  private static String parquet(String stem) {
    return stem + ".snappy.parquet";
  }

  private void write(String key) throws IOException {
    storage.createIfAbsent(key, "x".getBytes(StandardCharsets.UTF_8));
    assertThat(Files.exists(root.resolve(key))).isTrue();
  }
}
