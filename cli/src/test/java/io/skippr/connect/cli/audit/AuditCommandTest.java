package io.skippr.connect.cli.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.lake.log.LakeIdentity;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command on lakes of skippr sync runs, which need no Kafka, and its one-line errors. */
class AuditCommandTest {
  @TempDir Path root;

  private final LakeLayout layout = new LakeLayout();

  @Test
  void aSyncLakeWhoseUnitsFollowOnIsCleanWithoutKafka() throws Exception {
    syncLake(0, 9, 10, 19);

    Lakes.Run run = run("--topics-dir", root.toString(), "--output", "json");

    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.get("status").asText()).isEqualTo("clean");
    assertThat(json.get("partitions")).hasSize(1);
    assertThat(json.get("partitions").get(0).get("topic").asText()).isEqualTo("sync~files");
    assertThat(json.get("partitions").get(0).get("source").asText()).isEqualTo("sync");
    assertThat(json.get("partitions").get(0).get("live_files").asInt()).isEqualTo(2);
  }

  @Test
  void aDeletedFileAndAHoleInASyncLakeExitOne() throws Exception {
    syncLake(0, 9, 12, 19);
    Files.delete(root.resolve(file(0, 9)));

    Lakes.Run run = run("--topics-dir", root.toString());

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out())
        .contains("sync~files-0  problem  sync 0..19 (2 unit(s))")
        .contains("  gap: sequence numbers 10..11 in generation 0 are in no unit\n")
        .contains("  missing_file: " + file(0, 9) + ": ")
        .endsWith("result: problem (exit 1)\n");
  }

  @Test
  void aLakeOfKafkaTopicsNeedsBootstrapServers() throws Exception {
    LakeStorage storage = new LocalLakeStorage(root);
    TpLog.read(storage, layout, "orders", 0).claimEpoch(Lakes.LAKE, "test", 1L);

    Lakes.Run run = run("--topics-dir", root.toString());

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "skippr audit: comparing with Kafka needs --bootstrap-servers (the lake holds the"
                + " topics [orders])\n");
  }

  @Test
  void withoutALakeItSaysHowToNameOne() {
    Lakes.Run run = run("--connector", "x");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "skippr audit: name the lake: --topics-dir DIR|s3://BUCKET/PREFIX, or --connect-url"
                + " with --connector to read it from the connector's config\n");
  }

  @Test
  void anEmptyDirectoryIsNotTakenForACleanLake() {
    Lakes.Run run = run("--topics-dir", root.toString());

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("skippr audit: no TP log under ").contains("topics.dir");
  }

  @Test
  void anUnreachableConnectIsOneLine() {
    Lakes.Run run =
        run("--connector", "x", "--connect-url", "http://127.0.0.1:1", "--timeout", "2");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("skippr audit: cannot reach Connect at http://127.0.0.1:1");
    assertThat(run.err().lines()).hasSize(1);
  }

  @Test
  void helpDescribesTheChecksAndTheExitCodes() {
    Lakes.Run run = run("--help");

    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .contains("Usage: audit")
        .contains("--connector=NAME")
        .contains("--connect-url=URL")
        .contains("--bootstrap-servers")
        .contains("--output=text|json")
        .contains("transaction markers")
        .contains("Exit code 0");
  }

  private void syncLake(long... ranges) throws IOException {
    LakeStorage storage = new LocalLakeStorage(root);
    TpLog log = TpLog.read(storage, layout, "sync~files", 0);
    log.claimEpoch(LakeIdentity.establish(storage, layout, 1L), "test", 1L);
    for (int i = 0; i < ranges.length; i += 2) {
      long start = ranges[i];
      long end = ranges[i + 1];
      String id = LakeLayout.compactionId("sync~files", 0, start, end);
      String key = file(start, end);
      log.append(new LogEntry.Intent(id, start, end, log.epoch(), 1L, "cfg", List.of(key)));
      storage.createIfAbsent(key, "x".getBytes(StandardCharsets.UTF_8));
      log.append(
          new LogEntry.Commit(
              id, start, end, log.epoch(), List.of(new LiveFile(key, 1, 1, "00", "s"))));
    }
  }

  private static String file(long start, long end) {
    return "files/" + LakeLayout.compactionId("sync~files", 0, start, end) + ".snappy.parquet";
  }

  private static Lakes.Run run(String... args) {
    return Lakes.audit(args);
  }
}
