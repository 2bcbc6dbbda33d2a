package io.skippr.connect.source.file.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.file.commit.CommittedOffsets;
import io.skippr.connect.source.file.commit.OffsetMirror;
import io.skippr.connect.source.file.config.FileSourceConfig;
import io.skippr.connect.source.file.metrics.FileSourceMetrics;
import io.skippr.connect.source.file.records.FileRecords;
import io.skippr.connect.source.file.scan.DirectoryScanner;
import io.skippr.connect.source.file.scan.Heads;
import io.skippr.connect.source.file.track.FileCatalog;
import io.skippr.connect.source.file.track.Phase;
import io.skippr.connect.source.file.track.TaskShare;
import io.skippr.connect.source.file.track.TrackedFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copytruncate racing a task, one step at a time (no threads, no sleeps): the listing sees the log
 * with its old content, then the log is copied, truncated and written again before the task reads
 * it. Every line must come exactly once: the old content from the copy, the new from the log.
 */
class FollowedTruncationRaceTest {

  @TempDir Path dir;

  private FileCatalog catalog;
  private BatchReader reader;
  private DirectoryScanner scanner;
  private final List<SourceRecord> sent = new ArrayList<>();

  @BeforeEach
  void parts() {
    Map<String, String> props =
        Map.of(
            "file.dir", dir.toString(),
            "file.format", "ndjson",
            "topic", "logs",
            "file.tail", "true",
            "file.pattern", "app.log*",
            "file.min.age.ms", "0",
            "state.mirror", "off");
    FileSourceConfig.Values config = FileSourceConfig.from(props);
    FileSourceMetrics metrics = FileSourceMetrics.unpublished();
    CommittedOffsets committed = new CommittedOffsets(OffsetMirror.NONE, 0, () -> 0L);
    catalog =
        new FileCatalog(
            true, new Heads(1024), TaskShare.ALL, 0, () -> 0L, new TaskEvents(metrics, committed));
    reader =
        new BatchReader(
            FileSourceParts.settings(config.format(), config.topics(), false),
            true,
            new FileRecords("logs"),
            null,
            committed,
            metrics);
    scanner = new DirectoryScanner(dir, config.directory().matcher(), false, null);
  }

  @Test
  void aLogTruncatedAndWrittenAgainBetweenListingAndReadIsNotReadAsItsOldSelf() throws Exception {
    Path log = dir.resolve("app.log");
    append(log, 0, 100);
    list(); // the old content is identified: to be read from byte 0

    Files.copy(log, dir.resolve("app.log.1")); // copytruncate
    try (FileChannel c = FileChannel.open(log, StandardOpenOption.WRITE)) {
      c.truncate(0);
    }
    append(log, 100, 130); // the writer's next lines, before the task reads

    readAll(); // reads the new content at the old content's position
    list(); // the log is a new file now; the old content goes on in its copy
    readAll();
    list();
    readAll();

    assertThat(ids()).containsExactlyInAnyOrderElementsOf(range(0, 130));
  }

  @Test
  void aLogTruncatedAndWrittenAgainWhileFollowedIsNotReadOnFromItsOldPosition() throws Exception {
    Path log = dir.resolve("app.log");
    append(log, 0, 10);
    list();
    readAll();
    assertThat(ids()).containsExactlyElementsOf(range(0, 10));

    Files.copy(log, dir.resolve("app.log.1"));
    try (FileChannel c = FileChannel.open(log, StandardOpenOption.WRITE)) {
      c.truncate(0);
    }
    append(log, 10, 60); // longer than what was read: it looks as if the log grew

    readAll(); // the log looks grown: it is read on before a listing sees the truncation
    list();
    readAll();
    list();
    readAll();

    assertThat(ids()).containsExactlyInAnyOrderElementsOf(range(0, 60));
  }

  private void list() {
    for (TrackedFile f : catalog.reconcile(scanner.list())) {
      catalog.resolve(f, Map.of()); // nothing committed yet
    }
  }

  /**
   * Reads every readable file until none gives more, as polls between two listings would: a
   * followed file at its end is read again once its size is beyond what was read.
   */
  private void readAll() throws IOException {
    for (int round = 0; round < 10; round++) {
      int before = sent.size();
      for (TrackedFile f : catalog.inPhase(Phase.FOLLOWING)) {
        if (f.reading() instanceof FileReading r && r.hasMore()) {
          f.moveTo(Phase.READING);
        }
      }
      for (TrackedFile f : catalog.readable()) {
        reader.read(f, sent, new Budget(10_000, 1 << 20), false, 0L);
      }
      if (sent.size() == before) {
        return;
      }
    }
  }

  private List<Long> ids() {
    List<Long> ids = new ArrayList<>();
    for (SourceRecord r : sent) {
      ids.add(((Number) ((Map<?, ?>) r.value()).get("id")).longValue());
    }
    return ids;
  }

  private static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  private static void append(Path file, long from, long to) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (long id = from; id < to; id++) {
      sb.append("{\"id\":").append(id).append(",\"msg\":\"line ").append(id).append("\"}\n");
    }
    Files.writeString(file, sb, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
