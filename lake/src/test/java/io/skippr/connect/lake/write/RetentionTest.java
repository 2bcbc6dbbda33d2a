package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.maintenance.LateWrites;
import io.skippr.connect.lake.partition.Partitioners;
import io.skippr.connect.lake.partition.PathTimes;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * retention.ms on daily partitions: a path whose day ended more than the retention ago is expired
 * (an expire entry, its files deleted, then a purge), once; with retention.late.write.policy=reject
 * rows of such a path go to the dead letter queue instead.
 */
class RetentionTest {
  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;
  private static final long DAY0 = Instant.parse("2026-11-28T10:00:00Z").toEpochMilli();

  @TempDir Path root;

  private static LakeSinkConfig config(String root, String policy, String extractor) {
    return new LakeSinkConfig(
        Map.of(
            "topics.dir",
            root,
            "partitioner.class",
            "time",
            "path.format",
            "'dt'=YYYY-MM-dd",
            "partition.duration.ms",
            Long.toString(DAY),
            "timestamp.extractor",
            extractor,
            "timezone",
            "UTC",
            "retention.ms",
            Long.toString(DAY + HOUR),
            "retention.late.write.policy",
            policy,
            "compaction.enabled",
            "false"));
  }

  @Test
  void pathsPastRetentionExpireOnceAndTheRestStays() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeSinkConfig config = config(root.toString(), "accept", "Wallclock");
    LakeHarness harness = new LakeHarness(1, 0);
    harness.fileWriter = new ParquetFileWriter(FormatConfig.defaults());
    harness.partitioner = Partitioners.create(config.partitioning());
    harness.clock.now = DAY0;
    LakeWriter writer = harness.start(lake);
    for (int day = 0; day < 3; day++) {
      harness.clock.now = DAY0 + day * DAY;
      harness.perPartition += 50;
      while (harness.deliver(25)) {
        harness.commitOffsets();
      }
      harness.flushBySchedule();
    }
    assertThat(pathsOfLiveFiles(lake))
        .containsOnlyKeys("dt=2026-11-28", "dt=2026-11-29", "dt=2026-11-30");

    TaskMetrics metrics = new TaskMetrics();
    LakeMaintenance maintenance =
        LakeMaintenance.create(
                config.maintenance(), lake, writer::openLogs, () -> harness.clock.now, "test")
            .reportingTo(metrics.sink);
    harness.clock.now = DAY0 + 2 * DAY; // 2026-11-30 10:00: the 28th ended 34 h ago
    maintenance.pass();
    assertThat(pathsOfLiveFiles(lake)).containsOnlyKeys("dt=2026-11-29", "dt=2026-11-30");
    assertThat(lake.list(new LakeLayout().tablePrefix(LakeHarness.TABLE)))
        .noneMatch(key -> key.contains("dt=2026-11-28"));
    List<LogEntry> log = new LakeInspector(lake).entries(new TopicPartition(LakeHarness.TOPIC, 0));
    assertThat(log.stream().filter(LogEntry.Expire.class::isInstance)).hasSize(1);
    assertThat(log.stream().filter(LogEntry.Purge.class::isInstance)).hasSize(1);

    maintenance.pass();
    assertThat(new LakeInspector(lake).entries(new TopicPartition(LakeHarness.TOPIC, 0)))
        .as("running it again does nothing more")
        .hasSameSizeAs(log);
    assertThat(maintenance.filesExpired()).as("the two units of the 28th").isEqualTo(2);
    assertThat(metrics.value("files-expired-total")).isEqualTo(2);
    assertThat(metrics.value("retired-files-deleted-total")).isEqualTo(2);
    assertThat(metrics.value("merges-committed-total")).isZero();
    metrics.close();
  }

  @Test
  void rejectSendsRowsOfExpiredPathsToTheDeadLetterQueueWithTheReason() throws Exception {
    LocalLakeStorage lake = new LocalLakeStorage(root);
    LakeSinkConfig config = config(root.toString(), "reject", "Record");
    LakeHarness harness = new LakeHarness(1, 20);
    harness.fileWriter = new ParquetFileWriter(FormatConfig.defaults());
    harness.partitioner = Partitioners.create(config.partitioning());
    harness.lateWrites =
        LateWrites.of(config.retention(), PathTimes.of(config.partitioning()).orElseThrow());
    harness.clock.now = DAY0;
    harness.start(lake);
    harness.applySeeks();
    while (harness.deliver(10)) {
      harness.commitOffsets();
    }
    harness.flushBySchedule();
    assertThat(harness.context.reported).as("records of 1970, long past retention").hasSize(20);
    assertThat(harness.context.reasons.get(0).getMessage())
        .contains("dt=1970-01-01")
        .contains("retention.ms=90000000")
        .contains("retention.late.write.policy=reject");
    assertThat(pathsOfLiveFiles(lake)).isEmpty();
  }

  private static Map<String, Long> pathsOfLiveFiles(LocalLakeStorage lake) throws Exception {
    Map<String, Long> paths = new TreeMap<>();
    LakeManifest.liveFiles(lake)
        .values()
        .forEach(
            files ->
                files.forEach(
                    f -> {
                      String inTable = f.key().substring(f.key().indexOf('/') + 1);
                      paths.merge(
                          inTable.substring(0, inTable.lastIndexOf('/')), f.rows(), Long::sum);
                    }));
    return paths;
  }
}
