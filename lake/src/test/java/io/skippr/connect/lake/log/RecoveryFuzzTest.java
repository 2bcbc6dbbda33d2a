package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * TP logs written by the sink's own classes, one entry damaged at random, opened by {@link
 * TpRecovery}: the TP is refused with a {@link LogFormatException} and the lake is left exactly as
 * it was, or it opens to the same state as the undamaged log. The logs may end with a merge whose
 * writer stopped after its commit, before or after moving its files: a merged file still staged is
 * no damage, and the TP that opens finishes the moves. Cases per property: {@code fuzz.tries}.
 */
class RecoveryFuzzTest {
  private static final String TOPIC = "orders";
  private final LakeLayout layout = new LakeLayout();

  @Provide
  Arbitrary<Mutations> mutations() {
    return Mutations.any();
  }

  @Provide
  Arbitrary<Integer> units() {
    return Arbitraries.integers().between(1, 4);
  }

  /** How far a merge of the TP's files in {@code u/p=0} got before its writer stopped. */
  enum Merge {
    NONE,
    /** Committed, its output still staged and its inputs in their table. */
    COMMITTED,
    /** Committed, its inputs moved to {@code _skippr/retired/}, its output still staged. */
    INPUTS_RETIRED,
    /** Committed and placed. */
    PLACED
  }

  /**
   * A log of {@code units} units, with a checkpoint after unit {@code checkpointAfter} (none when
   * it is 0 or past the last; after the merge when it is one past the last), a merge of the units'
   * files of one path as far as {@code merge} says, and, when {@code pending}, a unit planned but
   * not committed.
   */
  private LakeIdentity landed(
      InMemoryLakeStorage storage, int units, int checkpointAfter, Merge merge, boolean pending)
      throws IOException {
    LakeIdentity lake = LakeIdentity.establish(storage, layout, 1L);
    TpLog log = TpLog.read(storage, layout, TOPIC, 0);
    log.claimEpoch(lake, "first", 1L);
    for (int unit = 0; unit < units; unit++) {
      LogEntry.Intent intent = intent(log, unit);
      log.append(intent);
      List<LiveFile> files =
          intent.files().stream()
              .map(
                  key -> {
                    byte[] content = key.getBytes(StandardCharsets.UTF_8);
                    storage.createIfAbsent(key, content);
                    return new LiveFile(key, 1, content.length, Sha256.hex(content), "s");
                  })
              .toList();
      log.append(
          new LogEntry.Commit(intent.id(), intent.start(), intent.end(), log.epoch(), files));
      if (unit + 1 == checkpointAfter) {
        log.checkpointIfDue(1);
      }
    }
    if (merge != Merge.NONE && units > 1) {
      merge(storage, log, merge);
      if (checkpointAfter == units + 1) {
        log.checkpointIfDue(1);
      }
    }
    if (pending) {
      log.append(intent(log, units));
    }
    return lake;
  }

  /** Merges the TP's files in {@code u/p=0} as far as {@code merge} says, as a merge does. */
  private void merge(InMemoryLakeStorage storage, TpLog log, Merge merge) throws IOException {
    List<String> inputs =
        log.state().liveFiles().keySet().stream().filter(k -> k.startsWith("u/")).toList();
    String id = inputs.stream().sorted().toList().get(0);
    id = id.substring(id.lastIndexOf('/') + 1, id.lastIndexOf('.')) + "+m000000000001";
    String output = layout.fileKey("u", "p=0", id, "txt");
    log.append(new LogEntry.CompactIntent(id, log.epoch(), 1L, inputs, List.of(output), "append"));
    byte[] content = output.getBytes(StandardCharsets.UTF_8);
    storage.createIfAbsent(layout.stagedKey(output), content);
    LiveFile merged = new LiveFile(output, inputs.size(), content.length, Sha256.hex(content), "s");
    log.append(new LogEntry.CompactCommit(id, log.epoch(), 1L, inputs, List.of(merged), 60_000L));
    if (merge == Merge.INPUTS_RETIRED) {
      log.placement().place(inputs, List.of());
    } else if (merge == Merge.PLACED) {
      log.placement().place(inputs, List.of(output));
    }
  }

  private LogEntry.Intent intent(TpLog log, int unit) {
    long start = unit * 10L;
    String id = LakeLayout.compactionId(TOPIC, 0, start, start + 9);
    return new LogEntry.Intent(
        id,
        start,
        start + 9,
        log.epoch(),
        1L,
        "cfg",
        List.of(
            layout.fileKey("t", "p=" + unit % 2, id, "txt"),
            layout.fileKey("u", "p=0", id, "txt")));
  }

  private static Map<String, String> objects(InMemoryLakeStorage storage) throws IOException {
    Map<String, String> objects = new TreeMap<>();
    for (String key : storage.list("")) {
      objects.put(key, Sha256.hex(storage.read(key)));
    }
    return objects;
  }

  @Property
  void aDamagedEntryIsRefusedChangingNothingOrOpensAsUndamaged(
      @ForAll("units") int units,
      @ForAll @IntRange(min = 0, max = 5) int checkpointAfter,
      @ForAll Merge merge,
      @ForAll boolean pending,
      @ForAll @IntRange(min = 0, max = 100) int which,
      @ForAll("mutations") Mutations damage)
      throws IOException {
    InMemoryLakeStorage storage = new InMemoryLakeStorage();
    LakeIdentity lake = landed(storage, units, checkpointAfter, merge, pending);
    LogState undamaged = TpLog.read(storage, layout, TOPIC, 0).state();
    List<String> entries = storage.list(layout.logPrefix(TOPIC, 0));
    String key = entries.get(which % entries.size());
    byte[] damaged = damage.apply(storage.read(key));
    storage.delete(key);
    storage.createIfAbsent(key, damaged);
    Map<String, String> before = objects(storage);

    RecoveredTp opened;
    try {
      opened =
          new TpRecovery(storage, layout, lake, ProgressMirror.NONE, "cfg", "second")
              .recover(TOPIC, 0, 2L, new OrphanSweeper(storage, layout));
    } catch (LogFormatException e) {
      assertThat(e.getMessage()).startsWith("Refusing to open orders-0: ").contains(key);
      assertThat(objects(storage)).as("nothing changed").isEqualTo(before);
      return;
    }
    LogState state = opened.log().state();
    assertThat(state.liveFiles()).isEqualTo(undamaged.liveFiles());
    assertThat(state.lastCommit()).isEqualTo(undamaged.lastCommit());
    assertThat(opened.replay()).isEqualTo(undamaged.pending());
    assertThat(opened.seekOffset()).isEqualTo(undamaged.resumeOffset());
    assertPlaced(storage, state);
  }

  @Property
  void aMergeWhoseWriterStoppedAfterItsCommitOpensAndIsPlaced(
      @ForAll @IntRange(min = 2, max = 4) int units,
      @ForAll @IntRange(min = 0, max = 5) int checkpointAfter,
      @ForAll Merge merge,
      @ForAll boolean pending)
      throws IOException {
    InMemoryLakeStorage storage = new InMemoryLakeStorage();
    LakeIdentity lake = landed(storage, units, checkpointAfter, merge, pending);
    LogState before = TpLog.read(storage, layout, TOPIC, 0).state();

    RecoveredTp opened =
        new TpRecovery(storage, layout, lake, ProgressMirror.NONE, "cfg", "second")
            .recover(TOPIC, 0, 2L, new OrphanSweeper(storage, layout));

    assertThat(opened.log().state().liveFiles()).isEqualTo(before.liveFiles());
    assertThat(opened.deletedOrphans()).isEmpty();
    assertPlaced(storage, opened.log().state());
  }

  /**
   * Every live file is in its table, every retired one under {@code _skippr/retired/}, nothing is
   * staged.
   */
  private void assertPlaced(InMemoryLakeStorage storage, LogState state) throws IOException {
    for (LiveFile file : state.liveFiles().values()) {
      assertThat(storage.read(file.key())).as(file.key()).hasSize((int) file.bytes());
    }
    for (String retired : state.retired().keySet()) {
      assertThat(storage.exists(retired)).as(retired + " left its table").isFalse();
      assertThat(storage.exists(layout.retiredKey(retired))).as(retired).isTrue();
    }
    assertThat(storage.list("_skippr/staged/")).isEmpty();
  }
}
