package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.HostileInput;
import io.skippr.connect.lake.convert.LakeRowConverter;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogCodec;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.LogFormatException;
import io.skippr.connect.lake.log.OrphanSweeper;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.TableSchemaLog;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.log.TpRecovery;
import io.skippr.connect.lake.maintenance.CompactionConfig;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.maintenance.RetentionConfig;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged {@code _skippr/} is refused, never repaired by guessing: a task that opens a TP whose
 * log, identity or live files cannot be trusted fails with a message naming the file, what is wrong
 * and the way out, and changes nothing (no epoch claimed, no orphan deleted, no append). An orphan
 * is the one thing recovered: deleted where the TP's log knows the table.
 */
class LakeDamageTest {
  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();
  private LakeHarness harness;

  /** The lake under test; every call in one test returns a view of the same lake. */
  LakeStorage storage() {
    return new LocalLakeStorage(root);
  }

  /**
   * Lands offsets 0..74 of orders-0 in three units of three files each, and stops the writer: its
   * log holds a claim, two units, a checkpoint and the third unit, which a writer reads.
   */
  private void landed() {
    harness = new LakeHarness(1, 75);
    harness.start(storage());
    harness.applySeeks();
    while (harness.deliver(25)) {
      harness.commitOffsets();
    }
    harness.writer.stop();
  }

  /** Starts a writer on the lake again, as a restarted task does. */
  private void reopen() {
    harness.start(storage());
  }

  private List<String> entries() throws IOException {
    return storage().list(layout.logPrefix(LakeHarness.TOPIC, 0));
  }

  /** The key of the newest entry of a kind. */
  private String newest(Class<? extends LogEntry> kind) throws IOException {
    List<String> keys = entries();
    for (int i = keys.size() - 1; i >= 0; i--) {
      if (kind.isInstance(LogCodec.decode(storage().read(keys.get(i)), keys.get(i)))) {
        return keys.get(i);
      }
    }
    throw new AssertionError("no " + kind.getSimpleName() + " entry");
  }

  private Map<String, LiveFile> live() throws IOException {
    return TpLog.read(storage(), layout, LakeHarness.TOPIC, 0).state().liveFiles();
  }

  private void replace(String key, byte[] content) throws IOException {
    storage().delete(key);
    assertThat(storage().createIfAbsent(key, content)).isTrue();
  }

  private String text(String key) throws IOException {
    return new String(storage().read(key), StandardCharsets.UTF_8);
  }

  /** Every object of the lake and the SHA-256 of its content. */
  private Map<String, String> objects() throws IOException {
    Map<String, String> objects = new TreeMap<>();
    for (String key : storage().list("")) {
      objects.put(key, Sha256.hex(storage().read(key)));
    }
    return objects;
  }

  /** Reopening fails naming {@code file} and the way out, and changes nothing. */
  private void refusedNaming(String file, String... what) throws IOException {
    Map<String, String> before = objects();
    assertThatThrownBy(this::reopen)
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining(file)
        .hasMessageContaining("Nothing was changed")
        .hasMessageContaining("\"A damaged lake\" in docs/lake-format.md")
        .hasMessageContainingAll(what);
    assertThat(objects()).as("nothing changed").isEqualTo(before);
  }

  @Test
  void aLakeThatWasNotDamagedOpensAgain() throws IOException {
    landed();
    Map<String, LiveFile> live = live();
    assertThat(live).hasSize(9);
    assertThat(LogCodec.decode(storage().read(entries().get(5)), "5"))
        .isInstanceOf(LogEntry.Checkpoint.class);

    reopen();

    assertThat(live()).isEqualTo(live);
    assertThat(text(entries().get(0))).contains("\"lake\":\"" + lakeId() + "\"").contains("sha256");
  }

  private String lakeId() throws IOException {
    return LakeIdentity.require(storage(), layout).id();
  }

  @Test
  void aTruncatedLogEntryIsRefused() throws IOException {
    landed();
    String commit = newest(LogEntry.Commit.class);
    byte[] bytes = storage().read(commit);
    replace(commit, java.util.Arrays.copyOf(bytes, bytes.length / 2));

    refusedNaming(commit, "Refusing to open orders-0", "not valid JSON (truncated or damaged)");
  }

  @Test
  void aLogEntryWhoseOffsetsWereEditedIsRefused() throws IOException {
    landed();
    String commit = newest(LogEntry.Commit.class);
    replace(commit, bytes(text(commit).replace("\"end\":74", "\"end\":84")));

    refusedNaming(commit, "fails its checksum", "edited by hand or damaged in storage");
  }

  @Test
  void aLogEntryWhoseFileListWasEditedIsRefused() throws IOException {
    landed();
    String commit = newest(LogEntry.Commit.class);
    String json = text(commit);
    String first = json.substring(json.indexOf("{\"key\""), json.indexOf("},{\"key\"") + 2);
    replace(commit, bytes(json.replace(first, "")));

    refusedNaming(commit, "fails its checksum");
  }

  @Test
  void anEditedLogEntryWithoutItsChecksumIsRefused() throws IOException {
    landed();
    String commit = newest(LogEntry.Commit.class);
    String json = text(commit);
    String edited = json.substring(0, json.indexOf(",\"sha256\":\"", json.lastIndexOf(']'))) + "}";
    replace(commit, bytes(edited.replace("\"end\":74", "\"end\":84")));

    refusedNaming(commit, "names its lake but has no checksum");
  }

  @Test
  void aMissingLogEntryIsRefused() throws IOException {
    landed();
    String intent = newest(LogEntry.Intent.class);
    storage().delete(intent);

    refusedNaming(
        layout.logPrefix(LakeHarness.TOPIC, 0),
        "log entry " + LakeLayout.seqOf(intent) + " is missing");
  }

  @Test
  void aLogEntryOfAnotherPartitionIsRefused() throws IOException {
    landed();
    List<String> keys = entries();
    for (int seq = 0; seq < keys.size(); seq++) {
      storage()
          .createIfAbsent(
              layout.entryKey(LakeHarness.TOPIC, 1, seq), storage().read(keys.get(seq)));
    }
    LakeIdentity lake = LakeIdentity.require(storage(), layout);
    TpRecovery recovery =
        new TpRecovery(storage(), layout, lake, ProgressMirror.NONE, "cfg", "test");
    Map<String, String> before = objects();

    assertThatThrownBy(
            () -> recovery.recover(LakeHarness.TOPIC, 1, 1L, new OrphanSweeper(storage(), layout)))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("Refusing to open orders-1")
        .hasMessageContaining("not one of orders-1")
        .hasMessageContaining("copied from another partition's log");
    assertThat(objects()).isEqualTo(before);
  }

  @Test
  void aDeletedLakeIdentityIsRefusedWhileLogsExistAndNeverGivenANewOne() throws IOException {
    landed();
    String id = lakeId();
    storage().delete(layout.identityKey());

    refusedNaming(
        layout.identityKey(),
        "has TP logs",
        "no identity",
        "The logs were written for lake " + id,
        "\"id\":\"" + id + "\"");
    assertThat(storage().exists(layout.identityKey())).isFalse();
  }

  @Test
  void aNewLakeIsNeverTakenForOneThatLostItsIdentity() throws IOException {
    // Another writer creates the identity and its first log entry while this one looks.
    LakeStorage racing =
        new io.skippr.connect.lake.storage.FaultInjectingStorage(storage())
            .runBefore(
                io.skippr.connect.lake.storage.FaultInjectingStorage.Op.LIST,
                1,
                () -> {
                  LakeIdentity other = LakeIdentity.establish(storage(), layout, 1L);
                  TpLog.read(storage(), layout, "t", 0).claimEpoch(other, "other", 1L);
                });

    LakeIdentity identity = LakeIdentity.establish(racing, layout, 2L);

    assertThat(identity.id()).isEqualTo(lakeId());
    assertThat(identity.createdAtMs()).as("the other writer's").isEqualTo(1L);
  }

  @Test
  void aLogCopiedFromAnotherLakeIsRefused() throws IOException {
    landed(); // the log of orders-0 of this lake, read with another lake's identity
    String id = lakeId();
    replace(
        layout.identityKey(),
        bytes("{\"version\":1,\"kind\":\"lake\",\"id\":\"other-lake\",\"created_at_ms\":5}"));

    refusedNaming(
        layout.logPrefix(LakeHarness.TOPIC, 0),
        "was written for lake " + id,
        "but this lake is other-lake",
        "copied from another lake");
  }

  @Test
  void aLiveFileThatStorageLacksIsRefused() throws IOException {
    landed();
    String file =
        live().keySet().stream().filter(k -> k.contains("+00000000000000000074")).findFirst().get();
    storage().delete(file);

    refusedNaming(file, "as live, but storage does not have it", "Its rows are not in the lake");
  }

  @Test
  void aCheckpointThatListsAMissingFileIsRefused() throws IOException {
    landed();
    LogEntry.Checkpoint checkpoint =
        (LogEntry.Checkpoint)
            LogCodec.decode(storage().read(newest(LogEntry.Checkpoint.class)), "checkpoint");
    String file = checkpoint.liveFiles().get(0).key();
    storage().delete(file);

    refusedNaming(file, "as live, but storage does not have it");
  }

  @Test
  void anOrphanWithALiveFilesNameIsDeletedOnlyWhereTheLogKnowsTheTable() throws IOException {
    landed();
    String liveFile = live().keySet().iterator().next();
    String name = liveFile.substring(liveFile.lastIndexOf('/') + 1);
    String otherPath =
        layout.fileKey(
            LakeHarness.TABLE, "p=elsewhere", name.substring(0, name.indexOf('.')), "txt");
    String otherTable =
        layout.fileKey("another_table", "p=0", name.substring(0, name.indexOf('.')), "txt");
    storage().createIfAbsent(otherPath, storage().read(liveFile));
    storage().createIfAbsent(otherTable, storage().read(liveFile));

    reopen();

    assertThat(storage().exists(otherPath)).as("an orphan of the TP is deleted").isFalse();
    assertThat(storage().exists(liveFile)).as("the live file stays").isTrue();
    assertThat(storage().exists(otherTable))
        .as("a table the TP's log never wrote to is not swept")
        .isTrue();
    assertThat(live()).containsKey(liveFile);
  }

  @Test
  void anEntryWrittenBeforeEntriesHadChecksumsStillReads() throws IOException {
    landed();
    String commit = newest(LogEntry.Commit.class);
    String json = text(commit);
    String legacy =
        json.substring(0, json.indexOf(",\"sha256\":\"", json.lastIndexOf(']')))
                .replace("\"lake\":\"" + lakeId() + "\",", "")
            + "}";
    replace(commit, bytes(legacy));

    reopen();

    assertThat(live()).hasSize(9);
  }

  /** Puts one schemaless record of a table whose stored schema is {@code schema}. */
  private void putWithStoredSchema(String schema) throws IOException {
    harness = new LakeHarness(1, 1);
    harness.converter =
        new LakeRowConverter(HostileInput.FORMAT, new TableSchemaLog(storage(), layout));
    harness.fileWriter = new ParquetFileWriter(HostileInput.FORMAT);
    harness.partitioner = (record, row, wallclock) -> "p=0";
    harness.start(storage());
    String key = layout.schemaKey(LakeHarness.TOPIC, 1);
    storage().createIfAbsent(key, bytes(schema));
    Map<String, String> before = objects();

    assertThatThrownBy(() -> harness.writer.put(List.of(HostileInput.record(0, Map.of("id", 1)))))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("table schema " + storage().location() + key);
    assertThat(harness.context.reported).as("nothing to the dead letter queue").isEmpty();
    assertThat(objects()).as("nothing written").isEqualTo(before);
  }

  @Test
  void aTableSchemaOfANewerFormatFailsTheTaskAndSendsNothingToTheDeadLetterQueue()
      throws IOException {
    putWithStoredSchema("{\"version\":9,\"kind\":\"table-schema\",\"table\":\"orders\"}");
  }

  @Test
  void aTruncatedTableSchemaFailsTheTask() throws IOException {
    putWithStoredSchema("{\"version\":1,\"kind\":\"table-schema\",\"table\":\"ord");
  }

  @Test
  void aCommittedFileWhoseBytesChangedIsNeverMerged() throws IOException {
    harness = new LakeHarness(1, 150);
    harness.fileWriter = new ParquetFileWriter(FormatConfig.defaults());
    LakeWriter writer = harness.start(storage());
    harness.applySeeks();
    while (harness.deliver(25)) {
      harness.commitOffsets();
    }
    Map<String, LiveFile> before = live();
    assertThat(before).as("six units of three paths").hasSize(18);
    String damaged = before.keySet().iterator().next();
    byte[] bytes = storage().read(damaged);
    bytes[bytes.length / 2] ^= 1;
    replace(damaged, bytes);
    String path = damaged.substring(0, damaged.lastIndexOf('/') + 1);

    LakeMaintenance.create(
            new LakeMaintenance.Settings(
                new CompactionConfig.Settings(true, 1L << 20, 5, 1_000, 60_000),
                WritePolicyConfig.Settings.APPEND,
                RetentionConfig.Settings.NONE,
                null,
                FormatConfig.defaults()),
            storage(),
            writer::openLogs,
            () -> harness.clock.now,
            "test")
        .pass();

    Map<String, LiveFile> after = live();
    assertThat(after.keySet().stream().filter(key -> key.startsWith(path)))
        .as("the damaged file's path is left as it was")
        .containsExactlyInAnyOrderElementsOf(
            before.keySet().stream().filter(key -> key.startsWith(path)).toList());
    assertThat(after).as("the other two paths were merged").hasSize(6 + 2);
    LogEntry.CompactAbort abort =
        (LogEntry.CompactAbort)
            LogCodec.decode(storage().read(newest(LogEntry.CompactAbort.class)), "abort");
    assertThat(abort.reason())
        .contains(damaged)
        .contains("is not the file its commit recorded: sha256 ")
        .contains("the log records " + before.get(damaged).sha256());
    writer.stop();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
