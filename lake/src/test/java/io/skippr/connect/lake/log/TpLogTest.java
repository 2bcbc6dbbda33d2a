package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.storage.FaultInjectingStorage;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpLogTest {
  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();

  /** The lake the tests' entries are written for. */
  static final LakeIdentity LAKE = new LakeIdentity("lake-test", "/lake/", 1L);

  /** The lake under test; every call in one test returns a view of the same lake. */
  LakeStorage storage() {
    return new LocalLakeStorage(root);
  }

  static LogEntry.Intent intent(long epoch, long start, long end, String... files) {
    return new LogEntry.Intent(
        LakeLayout.compactionId("t", 0, start, end),
        start,
        end,
        epoch,
        1_000L,
        "cfg",
        List.of(files));
  }

  static LogEntry.Commit commit(LogEntry.Intent intent) {
    List<LiveFile> files =
        intent.files().stream().map(key -> new LiveFile(key, 1, 10, "00", "s")).toList();
    return new LogEntry.Commit(intent.id(), intent.start(), intent.end(), intent.epoch(), files);
  }

  @Test
  void entriesRoundTripWithFormatVersionAndKind() {
    LogEntry.Intent intent = intent(3, 10, 19, "t/p=0/a.parquet");
    List<LogEntry> entries =
        List.of(
            new LogEntry.Epoch(3, "task-1", 5L),
            intent,
            commit(intent),
            new LogEntry.Abort(intent.id(), 3, "why"),
            new LogEntry.Checkpoint(
                3, 4, commit(intent).unit(), commit(intent).files(), List.of("t"), 0, null));
    for (LogEntry entry : entries) {
      byte[] json = LogCodec.encode(entry, LAKE.id());
      assertThat(new String(json, StandardCharsets.UTF_8))
          .startsWith("{\"version\":1,\"lake\":\"lake-test\",\"kind\":\"");
      assertThat(LogCodec.decode(json, "x")).isEqualTo(entry);
    }
  }

  @Test
  void aCommitOfARunWithoutKafkaKeepsItsSourcePositionThroughCheckpoints() {
    LogEntry.Intent intent = intent(3, 0, 9, "t/p=0/a.parquet");
    LogEntry.SourcePosition position =
        new LogEntry.SourcePosition(Map.of("file", "/in/a.ndjson"), Map.of("line", 10));
    LogEntry.Commit commit =
        new LogEntry.Commit(intent.id(), 0, 9, 3, commit(intent).files(), position);
    String json = new String(LogCodec.encode(commit, LAKE.id()), StandardCharsets.UTF_8);
    assertThat(json).startsWith("{\"version\":1,").contains("\"source\":{\"partition\":");
    assertThat(LogCodec.decode(json.getBytes(StandardCharsets.UTF_8), "x")).isEqualTo(commit);
    LogEntry checkpoint =
        new LogEntry.Checkpoint(3, 3, commit.unit(), commit.files(), List.of("t"), 0, null);
    LogEntry read = LogCodec.decode(LogCodec.encode(checkpoint, LAKE.id()), "x");
    assertThat(((LogEntry.Checkpoint) read).lastCommit().source()).isEqualTo(position);
    // Units read from Kafka carry no source position, and their entries no key for it.
    assertThat(new String(LogCodec.encode(commit(intent), LAKE.id()), StandardCharsets.UTF_8))
        .doesNotContain("source");
  }

  @Test
  void entriesOnlyAGenerationAwareReaderCanFoldAreVersionTwo() {
    List<LogEntry> entries =
        List.of(
            new LogEntry.Generation(3, 1, 0, 29_999, "topic recreated"),
            new LogEntry.Checkpoint(3, 4, null, List.of(), List.of("t"), 1, 0L));
    for (LogEntry entry : entries) {
      byte[] json = LogCodec.encode(entry, LAKE.id());
      assertThat(new String(json, StandardCharsets.UTF_8))
          .startsWith("{\"version\":2,\"lake\":\"lake-test\",\"kind\":\"");
      assertThat(LogCodec.decode(json, "x")).isEqualTo(entry);
    }
  }

  @Test
  void entriesAfterWhichFilesMoveAreVersionFourOtherMaintenanceThree() {
    LogEntry.Intent intent = intent(3, 0, 9, "t/p=0/a.parquet");
    List<LiveFile> files = commit(intent).files();
    List<LogEntry> four =
        List.of(
            new LogEntry.CompactCommit("m", 3, 5, List.of("t/p=0/x.parquet"), files, 6),
            new LogEntry.Commit(intent.id(), 0, 9, 3, files, null, List.of("t/p=0/x.parquet"), 6),
            new LogEntry.Checkpoint(
                3,
                3,
                null,
                files,
                List.of("t"),
                0,
                null,
                List.of(new LogEntry.RetiredFile("t/p=0/x.parquet", 6)),
                null));
    List<LogEntry> three =
        List.of(
            new LogEntry.CompactIntent("m", 3, 5, List.of("t/p=0/x.parquet"), List.of("y"), "a"),
            new LogEntry.CompactAbort("m", 3, "why"),
            new LogEntry.Expire(3, 5, List.of("t/p=0/x.parquet"), "old"),
            new LogEntry.Purge(3, List.of("t/p=0/x.parquet")));
    for (LogEntry entry : four) {
      byte[] json = LogCodec.encode(entry, LAKE.id());
      assertThat(new String(json, StandardCharsets.UTF_8))
          .startsWith("{\"version\":4,\"lake\":\"lake-test\",\"kind\":\"");
      assertThat(LogCodec.decode(json, "x")).isEqualTo(entry);
    }
    for (LogEntry entry : three) {
      byte[] json = LogCodec.encode(entry, LAKE.id());
      assertThat(new String(json, StandardCharsets.UTF_8))
          .startsWith("{\"version\":3,\"lake\":\"lake-test\",\"kind\":\"");
      assertThat(LogCodec.decode(json, "x")).isEqualTo(entry);
    }
  }

  @Test
  void aCompactCommitOfTheVersionBeforeReadsAsItWasWritten() {
    String old =
        "{\"version\":3,\"kind\":\"compact-commit\",\"id\":\"m\",\"epoch\":3,\"atMs\":5,"
            + "\"inputs\":[\"t/a.parquet\"],\"outputs\":[],\"deleteAfterMs\":6}";
    assertThat(LogCodec.decode(bytes(old), "x"))
        .isEqualTo(new LogEntry.CompactCommit("m", 3, 5, List.of("t/a.parquet"), List.of(), 6));
  }

  @Test
  void aVersionFourEntryWithoutItsLakeAndChecksumIsRefused() {
    // Writers before entries were sealed wrote version 3 at most: this one was edited.
    String unsealed =
        "{\"version\":4,\"kind\":\"compact-commit\",\"id\":\"m\",\"epoch\":3,\"atMs\":5,"
            + "\"inputs\":[\"t/a.parquet\"],\"outputs\":[],\"deleteAfterMs\":6}";
    assertThatThrownBy(() -> LogCodec.decode(bytes(unsealed), "k"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("log entry k has log format version 4 but no lake and checksum");
    LogEntry merge = new LogEntry.CompactCommit("m", 3, 5, List.of("t/a.parquet"), List.of(), 6);
    String sealed = new String(LogCodec.encode(merge, null), StandardCharsets.UTF_8);
    assertThat(sealed).startsWith("{\"version\":4,\"kind\"").contains("\"sha256\":");
    assertThatThrownBy(() -> LogCodec.decode(bytes(sealed), "k"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("no lake and checksum");
    assertThat(LogCodec.decode(LogCodec.encode(merge, LAKE.id()), "k")).isEqualTo(merge);
  }

  @Test
  void aCheckpointWrittenBeforeGenerationsExistedReadsAsGenerationZero() {
    String old =
        "{\"version\":1,\"kind\":\"checkpoint\",\"epoch\":3,\"maxEpoch\":4,\"lastCommit\":null,"
            + "\"liveFiles\":[],\"tables\":[\"t\"]}";
    assertThat(LogCodec.decode(bytes(old), "x"))
        .isEqualTo(new LogEntry.Checkpoint(3, 4, null, List.of(), List.of("t"), 0, null));
  }

  @Test
  void unknownVersionsAndKindsAreRefusedWithAClearMessage() {
    assertThatThrownBy(() -> LogCodec.decode(bytes("{\"version\":5,\"kind\":\"epoch\"}"), "k"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("log format version 5")
        .hasMessageContaining("only versions 1 to 4");
    assertThatThrownBy(() -> LogCodec.decode(bytes("{\"kind\":\"epoch\",\"epoch\":1}"), "k"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("no log format version");
    assertThatThrownBy(() -> LogCodec.decode(bytes("{\"version\":1,\"kind\":\"merge\"}"), "k"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("unknown kind \"merge\"");
    assertThatThrownBy(() -> LogCodec.decode(bytes("{not json"), "k"))
        .isInstanceOf(LogFormatException.class);
  }

  @Test
  void foldsIntentsCommitsAndAborts() throws IOException {
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    assertThat(log.state().lastSeq()).isEqualTo(-1);
    assertThat(log.claimEpoch(LAKE, "w", 1)).isEqualTo(1);
    LogEntry.Intent first = intent(1, 0, 9, "t/p=0/a");
    log.append(first);
    assertThat(log.state().pending()).contains(first);
    log.append(commit(first));
    LogEntry.Intent second = intent(1, 10, 19, "u/p=0/b");
    log.append(second);
    log.append(new LogEntry.Abort(second.id(), 1, "test"));

    TpLog reread = TpLog.read(storage(), layout, "t", 0);
    LogState state = reread.state();
    assertThat(state.lastSeq()).isEqualTo(4);
    assertThat(state.maxEpoch()).isEqualTo(1);
    assertThat(state.pending()).isEmpty();
    assertThat(state.lastCommit()).contains(new CommittedUnit(first.id(), 0, 9, 1));
    assertThat(state.liveFiles()).containsOnlyKeys("t/p=0/a");
    assertThat(state.tables()).containsExactly("t", "u");
    assertThat(storage().list("_skippr/log/t/0/"))
        .containsExactly(
            "_skippr/log/t/0/00000000000000000000.json",
            "_skippr/log/t/0/00000000000000000001.json",
            "_skippr/log/t/0/00000000000000000002.json",
            "_skippr/log/t/0/00000000000000000003.json",
            "_skippr/log/t/0/00000000000000000004.json");
  }

  @Test
  void anOlderEpochCanNeverAppendAfterANewerClaim() throws IOException {
    TpLog old = TpLog.read(storage(), layout, "t", 0);
    old.claimEpoch(LAKE, "old", 1);
    TpLog newer = TpLog.read(storage(), layout, "t", 0);
    assertThat(newer.claimEpoch(LAKE, "new", 2)).isEqualTo(2);

    assertThatThrownBy(() -> old.append(intent(1, 0, 9, "t/p=0/a")))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("epoch 2");
    // Once fenced, always fenced.
    assertThatThrownBy(() -> old.append(intent(1, 0, 9, "t/p=0/a")))
        .isInstanceOf(RuntimeException.class);

    LogState state = TpLog.read(storage(), layout, "t", 0).state();
    assertThat(state.lastSeq()).isEqualTo(1);
    assertThat(state.pending()).isEmpty();
    newer.append(intent(2, 0, 9, "t/p=0/a"));
  }

  @Test
  void concurrentClaimsBothSucceedInOrderAndTheLoserOfTheRaceIsTheNewest() throws IOException {
    TpLog a = TpLog.read(storage(), layout, "t", 0);
    TpLog b = TpLog.read(storage(), layout, "t", 0);
    assertThat(a.claimEpoch(LAKE, "a", 1)).isEqualTo(1);
    // b read the empty log, loses seq 0, re-reads and claims the next epoch.
    assertThat(b.claimEpoch(LAKE, "b", 1)).isEqualTo(2);
    assertThatThrownBy(() -> a.append(intent(1, 0, 0))).isInstanceOf(FencedException.class);
    b.append(intent(2, 0, 0));
  }

  @Test
  void openingReadsOnlyTheTailAfterTheNewestCheckpoint() throws IOException {
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch(LAKE, "w", 1);
    for (int unit = 0; unit < 30; unit++) {
      LogEntry.Intent intent = intent(1, unit * 10L, unit * 10L + 9, "t/p=0/f" + unit);
      log.append(intent);
      log.append(commit(intent));
      log.checkpointIfDue(8);
    }
    long entries = storage().list(layout.logPrefix("t", 0)).size();
    assertThat(entries).isEqualTo(1 + 60 + 7);

    FaultInjectingStorage counting = new FaultInjectingStorage(storage());
    LogState state = TpLog.read(counting, layout, "t", 0).state();
    // The newest checkpoint follows unit 27's commit; units 28 and 29 follow it.
    assertThat(counting.count(FaultInjectingStorage.Op.READ)).isEqualTo(5);
    assertThat(state.liveFiles()).hasSize(30);
    assertThat(state.lastCommit().get().end()).isEqualTo(299);
    assertThat(state.maxEpoch()).isEqualTo(1);
    assertThat(state.lastSeq()).isEqualTo(entries - 1);
    assertThat(state.entriesSinceCheckpoint()).isEqualTo(4);
  }

  @Test
  void aFailedAppendMakesTheLogUnusableUntilReopened() throws IOException {
    FaultInjectingStorage faulty = new FaultInjectingStorage(storage());
    TpLog log = TpLog.read(faulty, layout, "t", 0);
    log.claimEpoch(LAKE, "w", 1);
    faulty.failAt(
        FaultInjectingStorage.Op.CREATE_IF_ABSENT, k -> true, 1, FaultInjectingStorage.When.AFTER);
    assertThatThrownBy(() -> log.append(intent(1, 0, 9))).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> log.append(intent(1, 0, 9))).hasMessageContaining("failed earlier");
    // The entry did land: a fresh reader sees it as pending.
    assertThat(TpLog.read(storage(), layout, "t", 0).state().pending()).isPresent();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
