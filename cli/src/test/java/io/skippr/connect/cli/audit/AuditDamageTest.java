package io.skippr.connect.cli.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.common.Sha256;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TablePolicyLog;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr audit} on damaged lakes of {@code skippr sync} runs (no Kafka): each damage the
 * sink refuses is reported as a problem naming the file, and exits 1.
 */
class AuditDamageTest {
  private static final String TOPIC = "sync~files";

  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();
  private LakeIdentity lake;
  private final List<String> entries = new ArrayList<>();

  /** The lake under test; every call in one test returns a view of the same lake. */
  LakeStorage storage() {
    return new LocalLakeStorage(root);
  }

  /** How the command names the lake. */
  List<String> lakeArgs() {
    return List.of("--topics-dir", root.toString());
  }

  /**
   * A sync lake with units 0..9 and 10..19, a checkpoint, and unit 20..29: four files in tables
   * {@code files} and {@code other}.
   */
  @BeforeEach
  void syncLake() throws IOException {
    lake = LakeIdentity.establish(storage(), layout, 1L);
    TpLog log = TpLog.read(storage(), layout, TOPIC, 0);
    log.claimEpoch(lake, "test", 1L);
    unit(log, 0, 9, "files");
    unit(log, 10, 19, "other");
    log.checkpointIfDue(1);
    unit(log, 20, 29, "files");
    entries.addAll(storage().list(layout.logPrefix(TOPIC, 0)));
  }

  private void unit(TpLog log, long start, long end, String table) throws IOException {
    String id = LakeLayout.compactionId(TOPIC, 0, start, end);
    String key = file(table, start, end);
    byte[] content = ("rows " + start + ".." + end).getBytes(StandardCharsets.UTF_8);
    log.append(new LogEntry.Intent(id, start, end, log.epoch(), 1L, "cfg", List.of(key)));
    storage().createIfAbsent(key, content);
    LiveFile file = new LiveFile(key, end - start + 1, content.length, Sha256.hex(content), "s");
    log.append(new LogEntry.Commit(id, start, end, log.epoch(), List.of(file)));
  }

  private static String file(String table, long start, long end) {
    return table + "/" + LakeLayout.compactionId(TOPIC, 0, start, end) + ".snappy.parquet";
  }

  private void replace(String key, byte[] content) throws IOException {
    storage().delete(key);
    storage().createIfAbsent(key, content);
  }

  private String text(String key) throws IOException {
    return new String(storage().read(key), StandardCharsets.UTF_8);
  }

  private Lakes.Run audit(String... more) {
    List<String> args = new ArrayList<>(lakeArgs());
    args.addAll(List.of(more));
    return Lakes.audit(args.toArray(String[]::new));
  }

  /** The audit exits 1 with one finding of {@code kind}, whose text holds {@code what}. */
  private JsonNode problem(Lakes.Run run, String kind, String... what) throws IOException {
    assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(1);
    JsonNode report = new ObjectMapper().readTree(run.out());
    assertThat(report.get("status").asText()).isEqualTo("problem");
    List<JsonNode> found = new ArrayList<>();
    report.get("findings").forEach(found::add);
    report.get("partitions").forEach(tp -> tp.get("findings").forEach(found::add));
    JsonNode finding =
        found.stream()
            .filter(f -> f.get("kind").asText().equals(kind))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + kind + " in " + run.out()));
    assertThat(finding.get("severity").asText()).isEqualTo("problem");
    assertThat(finding.toString()).contains(what);
    return finding;
  }

  @Test
  void anUndamagedLakeIsClean() {
    Lakes.Run run = audit("--verify-files");

    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("sync~files-0  clean    sync 0..29 (3 unit(s))");
  }

  @Test
  void aTruncatedLogEntryIsUnreadable() throws IOException {
    String commit = entries.get(entries.size() - 1);
    byte[] bytes = storage().read(commit);
    replace(commit, Arrays.copyOf(bytes, bytes.length - 7));

    Lakes.Run run = audit("--output", "json");

    problem(run, "unreadable_log", commit, "not valid JSON (truncated or damaged)");
  }

  @Test
  void anEditedEntryBeforeTheNewestCheckpointIsFoundToo() throws IOException {
    String commit = entries.get(2); // unit 0..9: writers read from the checkpoint on
    replace(
        commit, text(commit).replace("\"end\":9", "\"end\":8").getBytes(StandardCharsets.UTF_8));

    problem(audit("--output", "json"), "unreadable_log", commit, "fails its checksum");
    assertThat(audit().out()).contains("sync~files-0  problem  sync log not read\n");
  }

  @Test
  void aDeletedIdentityIsAProblemOfTheLake() throws IOException {
    storage().delete(layout.identityKey());

    problem(
        audit("--output", "json"),
        "lake_identity",
        "lake.json is missing",
        "The logs were written for lake " + lake.id());
  }

  @Test
  void aLogOfAnotherLakeIsForeign() throws IOException {
    replace(
        layout.identityKey(),
        "{\"version\":1,\"kind\":\"lake\",\"id\":\"other-lake\",\"created_at_ms\":1}"
            .getBytes(StandardCharsets.UTF_8));

    problem(
        audit("--output", "json"),
        "foreign_log",
        "written for lake " + lake.id(),
        "but this lake is other-lake");
  }

  @Test
  void aTableSchemaOfANewerFormatIsUnreadable() throws IOException {
    String key = layout.schemaKey("files", 1);
    storage()
        .createIfAbsent(
            key,
            "{\"version\":9,\"kind\":\"table-schema\",\"table\":\"files\",\"schema_version\":1}"
                .getBytes(StandardCharsets.UTF_8));

    JsonNode finding =
        problem(audit("--output", "json"), "unreadable_schema", "log format version 9", "upgrade");
    assertThat(finding.get("file").asText()).isEqualTo(key);
  }

  @Test
  void aDamagedTablePolicyIsUnreadable() throws IOException {
    new TablePolicyLog(storage(), layout)
        .record("files", new TablePolicyLog.Policy("merge_by_key", List.of("id")));
    String key = layout.policyKey("files", 1);
    replace(key, text(key).replace("[\"id\"]", "[\"ie\"]").getBytes(StandardCharsets.UTF_8));

    JsonNode finding =
        problem(audit("--output", "json"), "unreadable_policy", "fails its checksum", "backup");
    assertThat(finding.get("file").asText()).isEqualTo(key);
  }

  /** Deletes a live file: the audit reports it missing. */
  private void missing(String key) throws IOException {
    storage().delete(key);

    JsonNode finding =
        problem(audit("--output", "json"), "missing_file", "storage does not have it");
    assertThat(finding.get("file").asText()).isEqualTo(key);
  }

  @Test
  void aFileACheckpointListsThatStorageLacksIsMissing() throws IOException {
    missing(file("other", 10, 19));
  }

  @Test
  void aFileACommitListsThatStorageLacksIsMissing() throws IOException {
    missing(file("files", 20, 29));
  }

  @Test
  void aFileWhoseBytesChangedIsCorruptWhenFilesAreVerified() throws IOException {
    String key = file("files", 20, 29);
    byte[] bytes = storage().read(key);
    bytes[0] ^= 1;
    replace(key, bytes);

    assertThat(audit().exit()).as("not read without --verify-files").isZero();
    JsonNode finding =
        problem(
            audit("--output", "json", "--verify-files"),
            "corrupt_file",
            "not the one its commit recorded: sha256");
    assertThat(finding.get("file").asText()).isEqualTo(key);
  }

  @Test
  void anOrphanWithALiveFilesNameInATableTheLogNeverWroteToIsAWarning() throws IOException {
    String live = file("files", 20, 29);
    String copy = file("elsewhere", 20, 29);
    storage().createIfAbsent(copy, storage().read(live));
    // the audit lists only tables some log knows: a table of another TP's log
    TpLog other = TpLog.read(storage(), layout, "sync~more", 0);
    other.claimEpoch(lake, "test", 1L);
    String id = LakeLayout.compactionId("sync~more", 0, 0, 0);
    String key = "elsewhere/" + id + ".snappy.parquet";
    other.append(new LogEntry.Intent(id, 0, 0, other.epoch(), 1L, "cfg", List.of(key)));

    Lakes.Run run = audit();

    assertThat(run.exit()).as(run.out()).isZero();
    assertThat(run.out())
        .contains("  orphan: " + copy + ": no commit lists this file, and its partition's log")
        .contains("which the sink does not delete")
        .doesNotContain("missing_file");
  }
}
