package io.skippr.connect.sink.log;

import static io.skippr.connect.sink.log.TpLogTest.commit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.sink.storage.LocalLakeStorage;
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

  private final LakeLayout layout = new LakeLayout("topics");

  private LocalLakeStorage storage() {
    return new LocalLakeStorage(root);
  }

  private RecoveredTp recover(String fingerprint, ProgressMirror mirror) throws IOException {
    TpRecovery recovery = new TpRecovery(storage(), layout, mirror, fingerprint, "test");
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

  @Test
  void withoutACommitTheMirroredProgressDecides() throws IOException {
    ProgressMirror mirror =
        new ProgressMirror() {
          @Override
          public Optional<SinkProgress> lookup(String topic, int partition) {
            return Optional.of(new SinkProgress(topic, partition, 99, "id", 3, 12));
          }

          @Override
          public void record(SinkProgress progress) {}
        };
    assertThat(recover("cfg", mirror).seekOffset()).isEqualTo(OptionalLong.of(100));
  }

  @Test
  void resumesAfterTheLastCommitAndReplaysAPendingIntent() throws IOException {
    String committed = file("tab", "p=0", 0, 9);
    String planned = file("tab", "p=0", 10, 19);
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch("first", 1);
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
    String userFile = "topics/tab/p=0/_SUCCESS";
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch("first", 1);
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
    assertThat(storage().list("topics/tab/"))
        .containsExactlyInAnyOrder(live, otherPartition, otherTopic, userFile);
    assertThat(storage().list("topics/other/")).containsExactly(pendingFile);
    assertThat(storage().listIncomplete("topics/"))
        .as("only the unfinished write of this TP is discarded")
        .containsExactly(layout.fileKey("tab", "p=0", "t+1+0+1", "txt"));
  }

  @Test
  void aPendingIntentOfOtherSettingsIsAbandonedAndPlannedAnew() throws IOException {
    String planned = file("tab", "p=0", 0, 9);
    TpLog log = TpLog.read(storage(), layout, "t", 0);
    log.claimEpoch("first", 1);
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
    log.claimEpoch("first", 1);
    log.append(intent(1, 0, 9, List.of(file("tab", "p=0", 0, 9))));
    put(orphan);
    storage()
        .createIfAbsent(
            layout.entryKey("t", 0, 2),
            "{\"version\":2,\"kind\":\"epoch\",\"epoch\":5}".getBytes(StandardCharsets.UTF_8));
    Map<String, String> before = snapshot();

    assertThatThrownBy(() -> recover("other-cfg", ProgressMirror.NONE))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("refusing to open t-0")
        .hasMessageContaining("00000000000000000002.json")
        .hasMessageContaining("log format version 2");

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
