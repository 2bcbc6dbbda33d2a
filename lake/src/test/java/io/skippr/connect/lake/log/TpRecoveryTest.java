package io.skippr.connect.lake.log;

import static io.skippr.connect.lake.log.TpLogTest.commit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpRecoveryTest {
  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();

  private LocalLakeStorage storage() {
    return new LocalLakeStorage(root);
  }

  private static final LakeIdentity LAKE = new LakeIdentity("lake-b", "/lakes/b/", 1L);

  private RecoveredTp recover(String fingerprint, ProgressMirror mirror) throws IOException {
    TpRecovery recovery = new TpRecovery(storage(), layout, LAKE, mirror, fingerprint, "test");
    return recovery.recover("t", 0, 42L, new OrphanSweeper(storage(), layout));
  }

  private String file(String table, String path, long start, long end) {
    return layout.fileKey(table, path, LakeLayout.compactionId("t", 0, start, end), "txt");
  }

  private LogEntry.Intent intent(long epoch, long start, long end, List<String> files) {
    return new LogEntry.Intent(
        LakeLayout.compactionId("t", 0, start, end), start, end, epoch, 7L, "cfg", files);
  }

  private void put(String key) throws IOException {
    storage().createIfAbsent(key, key.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void emptyLogClaimsEpochOneAndKeepsTheConsumerPosition() throws IOException {
    RecoveredTp tp = recover("cfg", ProgressMirror.NONE);
    assertThat(tp.log().epoch()).isEqualTo(1);
    assertThat(tp.seekOffset()).isEmpty();
    assertThat(tp.replay()).isEmpty();
  }

  /** A mirror holding one row, that records what is dropped. */
  private static final class OneRowMirror implements ProgressMirror {
    SinkProgress row;
    boolean forgotten;

    OneRowMirror(SinkProgress row) {
      this.row = row;
    }

    @Override
    public Optional<SinkProgress> lookup(String topic, int partition) {
      return Optional.ofNullable(row);
    }

    @Override
    public void record(SinkProgress progress) {
      row = progress;
    }

    @Override
    public void forget(String topic, int partition) {
      row = null;
      forgotten = true;
    }
  }

  private static SinkProgress progress(long end, long generation, String lakeId) {
    return new SinkProgress("t", 0, end, "id", 3, 12, generation, lakeId, "/lakes/x/");
  }

  @Test
  void withoutACommitTheMirroredProgressOfThisLakeDecides() throws IOException {
    OneRowMirror mirror = new OneRowMirror(progress(99, 0, LAKE.id()));
    assertThat(recover("cfg", mirror).seekOffset()).isEqualTo(OptionalLong.of(100));
    assertThat(mirror.forgotten).isFalse();
  }

  @Test
  void mirroredProgressOfAnotherLakeIsDroppedAndNeverUsedToSeek() throws IOException {
    OneRowMirror mirror = new OneRowMirror(progress(196_268, 0, "lake-a"));
    assertThat(recover("cfg", mirror).seekOffset()).isEmpty();
    assertThat(mirror.forgotten).isTrue();

    OneRowMirror withoutIdentity = new OneRowMirror(progress(99, 0, null));
    assertThat(recover("cfg", withoutIdentity).seekOffset()).isEmpty();
    assertThat(withoutIdentity.forgotten).isTrue();
  }

  @Test
  void mirroredProgressOfALaterGenerationContinuesThatGeneration() throws IOException {
    OneRowMirror mirror = new OneRowMirror(progress(49, 2, LAKE.id()));
    RecoveredTp tp = recover("cfg", mirror);
    assertThat(tp.seekOffset()).isEqualTo(OptionalLong.of(50));
    assertThat(tp.log().state().generation()).isEqualTo(2);
    assertThat(TpLog.read(storage(), layout, "t", 0).state().resumeOffset())
        .as("the log itself now says where generation 2 goes on")
        .isEqualTo(OptionalLong.of(50));
  }

  @Test
  void aGenerationResumesAtItsStartUntilItCommitsAndNeverAsksTheMirror() throws IOException {
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch(LAKE, "first", 1);
    LogEntry.Intent first = intent(1, 0, 9, List.of(file("tab", "p=0", 0, 9)));
    log.append(first);
    put(file("tab", "p=0", 0, 9));
    log.append(commit(first));
    log.append(new LogEntry.Generation(1, 1, 0, 9, "topic recreated"));

    OneRowMirror mirror = new OneRowMirror(progress(9, 0, LAKE.id()));
    RecoveredTp atStart = recover("cfg", mirror);
    assertThat(atStart.seekOffset()).isEqualTo(OptionalLong.of(0));
    assertThat(atStart.log().state().generation()).isEqualTo(1);
    assertThat(atStart.log().state().lastCommit()).isEmpty();
    assertThat(atStart.log().state().liveFiles()).as("older files stay live").hasSize(1);

    atStart.log().append(new LogEntry.Generation(2, 2, -1, -1, "offsets reset"));
    assertThat(recover("cfg", mirror).seekOffset())
        .as("a generation whose start the consumer decides")
        .isEmpty();
  }

  @Test
  void resumesAfterTheLastCommitAndReplaysAPendingIntent() throws IOException {
    String committed = file("tab", "p=0", 0, 9);
    String planned = file("tab", "p=0", 10, 19);
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch(LAKE, "first", 1);
    LogEntry.Intent first = intent(1, 0, 9, List.of(committed));
    log.append(first);
    put(committed);
    log.append(commit(first));

    RecoveredTp afterCommit = recover("cfg", ProgressMirror.NONE);
    assertThat(afterCommit.seekOffset()).isEqualTo(OptionalLong.of(10));
    assertThat(afterCommit.log().epoch()).isEqualTo(2);

    LogEntry.Intent second = intent(2, 10, 19, List.of(planned));
    afterCommit.log().append(second);
    put(planned);
    RecoveredTp pending = recover("cfg", ProgressMirror.NONE);
    assertThat(pending.log().epoch()).isEqualTo(3);
    assertThat(pending.replay()).contains(second);
    assertThat(pending.seekOffset()).isEqualTo(OptionalLong.of(10));
    assertThat(storage().exists(planned)).as("pending files are kept").isTrue();
  }

  @Test
  void deletesOnlyThisTpsFilesThatNoCommitNorThePendingIntentLists() throws IOException {
    String live = file("tab", "p=0", 0, 9);
    String pendingFile = file("other", "dt=1", 20, 29);
    String orphanOfAbort = file("tab", "p=1", 10, 19);
    String strayOfThisTp = file("tab", "p=7", 30, 31);
    String otherPartition = layout.fileKey("tab", "p=0", "t+1+00000000000000000000+0000", "txt");
    String otherTopic = layout.fileKey("tab", "p=0", "tt+0+00000000000000000000+0000", "txt");
    String userFile = "tab/p=0/_SUCCESS";
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch(LAKE, "first", 1);
    LogEntry.Intent first = intent(1, 0, 9, List.of(live));
    log.append(first);
    log.append(commit(first));
    log.append(intent(1, 10, 19, List.of(orphanOfAbort)));
    log.append(intent(1, 20, 29, List.of(pendingFile)));
    for (String key :
        List.of(live, pendingFile, orphanOfAbort, strayOfThisTp, otherPartition, otherTopic)) {
      put(key);
    }
    put(userFile);
    storage().create(file("tab", "p=0", 40, 49)).stream().write(1);
    storage().create(layout.fileKey("tab", "p=0", "t+1+0+1", "txt")).stream().write(1);

    RecoveredTp tp = recover("cfg", ProgressMirror.NONE);

    assertThat(tp.deletedOrphans()).containsExactlyInAnyOrder(orphanOfAbort, strayOfThisTp);
    assertThat(storage().list("tab/"))
        .containsExactlyInAnyOrder(live, otherPartition, otherTopic, userFile);
    assertThat(storage().list("other/")).containsExactly(pendingFile);
    assertThat(storage().listIncomplete(""))
        .as("only the unfinished write of this TP is discarded")
        .containsExactly(layout.fileKey("tab", "p=0", "t+1+0+1", "txt"));
  }

  @Test
  void aPendingIntentOfOtherSettingsIsAbandonedAndPlannedAnew() throws IOException {
    String planned = file("tab", "p=0", 0, 9);
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch(LAKE, "first", 1);
    log.append(intent(1, 0, 9, List.of(planned)));
    put(planned);

    RecoveredTp tp = recover("other-cfg", ProgressMirror.NONE);

    assertThat(tp.replay()).isEmpty();
    assertThat(storage().exists(planned)).isFalse();
    assertThat(tp.seekOffset()).as("nothing committed: the consumer position stays").isEmpty();
    LogState reread = TpLog.read(storage(), layout, "t", 0).state();
    assertThat(reread.pending()).isEmpty();
    String last = storage().list(layout.logPrefix("t", 0)).get((int) reread.lastSeq());
    assertThat(LogCodec.decode(storage().read(last), last)).isInstanceOf(LogEntry.Abort.class);
  }

  @Test
  void anUnknownLogVersionIsRefusedBeforeAnythingChanges() throws IOException {
    String orphan = file("tab", "p=0", 10, 19);
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch(LAKE, "first", 1);
    log.append(intent(1, 0, 9, List.of(file("tab", "p=0", 0, 9))));
    put(orphan);
    storage()
        .createIfAbsent(
            layout.entryKey("t", 0, 2),
            "{\"version\":5,\"kind\":\"epoch\",\"epoch\":5}".getBytes(StandardCharsets.UTF_8));
    Map<String, String> before = snapshot();

    assertThatThrownBy(() -> recover("other-cfg", ProgressMirror.NONE))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("Refusing to open t-0")
        .hasMessageContaining("00000000000000000002.json")
        .hasMessageContaining("log format version 5");

    assertThat(snapshot()).isEqualTo(before);
  }

  private Map<String, String> snapshot() throws IOException {
    Map<String, String> files = new TreeMap<>();
    List<Path> paths = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile).forEach(paths::add);
    }
    for (Path path : paths) {
      files.put(root.relativize(path).toString(), Files.readString(path));
    }
    return files;
  }
}
