package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.maintenance.CompactionConfig;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.storage.FaultInjectingStorage;
import io.skippr.connect.lake.storage.FaultInjectingStorage.Op;
import io.skippr.connect.lake.storage.FaultInjectingStorage.When;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance metrics of a sink task, through Connect's plugin metrics over a real registry:
 * real merges in a local lake count what the files on disk and the TP logs show, and a merge whose
 * commit never reached the log is never counted as committed.
 */
class CompactionMetricsTest {
  private static final int PARTITIONS = 2;
  private static final long RECORDS = 300;
  private static final int UNIT_FILES = PARTITIONS * 12 * 3; // units of 25, 3 paths per TP
  private static final int MERGES = PARTITIONS * 3; // one merge per path and TP
  private static final long GRACE_MS = 60_000;
  private static final CompactionConfig.Settings SETTINGS =
      new CompactionConfig.Settings(true, 1L << 20, 5, 1_000, GRACE_MS);

  @TempDir Path root;

  private LakeHarness harness;
  private TaskMetrics metrics;

  @BeforeEach
  void metrics() {
    metrics = new TaskMetrics();
  }

  @AfterEach
  void close() {
    metrics.close();
  }

  @Test
  void aMergeCountsTheFilesAndBytesOnDiskAndItsInputsWaitOutTheGrace() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeMaintenance maintenance = maintenance(lake, write(lake));
    assertThat(value("merges-committed-total")).isZero();
    long unitBytes = tableBytes();

    maintenance.pass();
    assertThat(tableFiles(lake)).hasSize(MERGES);
    assertThat(value("merges-committed-total")).isEqualTo(MERGES);
    assertThat(value("merge-input-files-total")).isEqualTo(UNIT_FILES);
    assertThat(value("merge-output-files-total")).isEqualTo(MERGES);
    assertThat(value("merge-input-bytes-total")).isEqualTo(unitBytes);
    assertThat(value("merge-output-bytes-total")).isEqualTo(tableBytes());
    assertThat(value("merges-abandoned-total")).isZero();
    assertThat(value("retired-files")).isEqualTo(UNIT_FILES);
    assertThat(value("retired-files")).isEqualTo(aside(lake, "retired"));
    assertThat(value("retired-files-deleted-total")).isZero();

    harness.clock.now += GRACE_MS;
    maintenance.pass();
    assertThat(value("merges-committed-total")).as("nothing more to merge").isEqualTo(MERGES);
    assertThat(value("retired-files")).isZero();
    assertThat(value("retired-files-deleted-total")).isEqualTo(UNIT_FILES);
    assertThat(aside(lake, "retired")).isZero();
    assertThat(value("maintenance-failures-total")).isZero();
  }

  @Test
  void aMergeWhoseInputCannotBeReadIsAbandonedNotCommitted() throws Exception {
    FaultInjectingStorage lake = new FaultInjectingStorage(new LocalLakeStorage(root));
    LakeMaintenance maintenance = maintenance(lake, write(lake));
    lake.failAt(Op.READ, key -> key.endsWith(".parquet"), 4, When.BEFORE);

    maintenance.pass();
    assertThat(lake.fired()).isTrue();
    assertThat(value("merges-abandoned-total")).isEqualTo(1);
    assertThat(value("merges-committed-total"))
        .isEqualTo(MERGES - 1)
        .isEqualTo(commitsInLogs(lake));
    assertThat(value("merge-input-files-total")).isEqualTo(UNIT_FILES - 12);
    assertThat(value("merge-output-files-total")).isEqualTo(MERGES - 1);

    maintenance.pass(); // the abandoned merge's inputs stayed live: merged now
    assertThat(value("merges-committed-total")).isEqualTo(MERGES).isEqualTo(commitsInLogs(lake));
    assertThat(value("merges-abandoned-total")).isEqualTo(1);
    assertThat(value("merge-input-files-total")).isEqualTo(UNIT_FILES);
  }

  @Test
  void aMergeWhoseCommitNeverReachedTheLogIsNotCounted() throws Exception {
    FaultInjectingStorage lake = new FaultInjectingStorage(new LocalLakeStorage(root));
    LakeMaintenance maintenance = maintenance(lake, write(lake));
    lake.failAtEntry("compact-commit", 1, When.BEFORE); // as if the worker died there

    maintenance.pass();
    assertThat(lake.fired()).isTrue();
    assertThat(value("maintenance-failures-total")).as("the TP's pass stopped").isEqualTo(1);
    assertThat(commitsInLogs(lake)).as("the other TP's merges").isEqualTo(3);
    assertThat(value("merges-committed-total")).isEqualTo(3);
    assertThat(value("merge-input-files-total")).isEqualTo(36);
    assertThat(value("merge-output-files-total")).isEqualTo(3);
    assertThat(value("merges-abandoned-total"))
        .as("abandoned by the TP's next owner, not by this maintenance")
        .isZero();
  }

  @Test
  void theMetricsCarryTheTaskTags() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    maintenance(lake, write(lake));
    for (String name :
        Stream.of(
                "merges-committed",
                "merge-input-files",
                "merge-output-files",
                "merge-input-bytes",
                "merge-output-bytes",
                "merges-abandoned",
                "files-expired",
                "retired-files-deleted",
                "maintenance-failures")
            .map(n -> n + "-total")
            .toList()) {
      assertThat(metrics.name(name).tags())
          .containsEntry("connector", "lake")
          .containsEntry("task", "0");
    }
    assertThat(metrics.name("retired-files").tags()).containsEntry("connector", "lake");
  }

  /** The small files to merge: 12 units of 25 records on 3 partition paths per TP. */
  private LakeWriter write(LakeStorage storage) {
    harness = new LakeHarness(PARTITIONS, RECORDS);
    harness.fileWriter = new ParquetFileWriter(FormatConfig.defaults());
    return harness.writeAll(storage, 40);
  }

  private LakeMaintenance maintenance(LakeStorage storage, LakeWriter writer) {
    return harness.maintenance(storage, writer, SETTINGS).reportingTo(metrics.sink);
  }

  private long value(String name) {
    return metrics.value(name);
  }

  private static List<String> tableFiles(LakeStorage lake) throws IOException {
    return lake.list(new LakeLayout().tablePrefix(LakeHarness.TABLE));
  }

  /** The bytes of the Parquet files a glob of the table finds, measured on disk. */
  private long tableBytes() throws IOException {
    try (Stream<Path> files = Files.walk(root.resolve(LakeHarness.TABLE))) {
      return files
          .filter(p -> p.toString().endsWith(".parquet"))
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    }
  }

  private static long aside(LakeStorage lake, String area) throws IOException {
    return lake.list("_skippr/" + area + "/").size();
  }

  /** The {@code compact-commit} entries of every TP's log. */
  private long commitsInLogs(LakeStorage lake) throws IOException {
    long commits = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      commits +=
          new LakeInspector(lake)
              .entries(new TopicPartition(LakeHarness.TOPIC, p)).stream()
                  .filter(LogEntry.CompactCommit.class::isInstance)
                  .count();
    }
    return commits;
  }
}
