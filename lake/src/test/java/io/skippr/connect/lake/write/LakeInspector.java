package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogCodec;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/** Reads a lake back the hard way: every log entry, every file, every offset. */
final class LakeInspector {
  private final LakeStorage storage;
  private final LakeLayout layout = new LakeLayout();

  LakeInspector(LakeStorage storage) {
    this.storage = storage;
  }

  /** Every entry of a TP log, in order. */
  List<LogEntry> entries(TopicPartition tp) throws IOException {
    List<LogEntry> entries = new ArrayList<>();
    for (String key : storage.list(layout.logPrefix(tp.topic(), tp.partition()))) {
      entries.add(LogCodec.decode(storage.read(key), key));
    }
    return entries;
  }

  List<LogEntry.Commit> commits(TopicPartition tp) throws IOException {
    return entries(tp).stream()
        .filter(LogEntry.Commit.class::isInstance)
        .map(LogEntry.Commit.class::cast)
        .toList();
  }

  /**
   * Asserts the lake holds offsets {@code 0..perPartition-1} of every TP exactly once: commits tile
   * the offsets, the table holds exactly the committed files, and the files (written by {@link
   * WriterDoubles.OffsetsFileWriter}) hold every offset once, inside their unit's range.
   */
  void assertExactlyOnce(String table, List<TopicPartition> tps, long perPartition)
      throws IOException {
    assertExactlyOnce(table, tps, perPartition, true);
  }

  /** As above; {@code readOffsets=false} checks the log and the listing but not file content. */
  void assertExactlyOnce(
      String table, List<TopicPartition> tps, long perPartition, boolean readOffsets)
      throws IOException {
    Set<String> committedFiles = new HashSet<>();
    for (TopicPartition tp : tps) {
      long next = 0;
      Map<Long, Integer> seen = new HashMap<>();
      for (LogEntry.Commit commit : commits(tp)) {
        assertThat(commit.start()).as("unit after offset %d of %s", next - 1, tp).isEqualTo(next);
        assertThat(commit.id())
            .isEqualTo(
                LakeLayout.compactionId(tp.topic(), tp.partition(), commit.start(), commit.end()));
        next = commit.end() + 1;
        for (LiveFile file : commit.files()) {
          committedFiles.add(file.key());
          if (!readOffsets) {
            continue;
          }
          for (long offset : offsetsIn(file.key())) {
            assertThat(offset).as(file.key()).isBetween(commit.start(), commit.end());
            seen.merge(offset, 1, Integer::sum);
          }
        }
      }
      assertThat(next).as("committed end of %s", tp).isEqualTo(perPartition);
      if (!readOffsets) {
        continue;
      }
      assertThat(seen).as("offsets of %s", tp).hasSize((int) perPartition);
      assertThat(seen.values()).as("each offset of %s once", tp).allMatch(n -> n == 1);
    }
    assertThat(storage.list(layout.tablePrefix(table)))
        .as("files in the table are exactly the committed ones")
        .containsExactlyInAnyOrderElementsOf(committedFiles);
    assertThat(storage.listIncomplete("")).as("no unfinished writes").isEmpty();
  }

  List<Long> offsetsIn(String key) throws IOException {
    List<Long> offsets = new ArrayList<>();
    for (String line : new String(storage.read(key), StandardCharsets.UTF_8).split("\n")) {
      if (!line.isEmpty()) {
        offsets.add(Long.parseLong(line));
      }
    }
    return offsets;
  }
}
