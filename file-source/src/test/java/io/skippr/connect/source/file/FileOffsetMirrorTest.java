package io.skippr.connect.source.file;

import static io.skippr.connect.source.file.FileSourceTaskTest.ndjson;
import static io.skippr.connect.source.file.FileSourceTaskTest.numbers;
import static io.skippr.connect.source.file.FileSourceTaskTest.range;
import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.file.track.FileOffset;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.connect.SourceOffsetMirror;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Committed offsets reach the real RocksDB state store, and resume a task Kafka cannot. */
class FileOffsetMirrorTest {

  @TempDir Path dir;
  @TempDir Path state;

  private Map<String, String> props() {
    Map<String, String> props = new HashMap<>();
    props.put("file.dir", dir.toString());
    props.put("file.format", "ndjson");
    props.put("topic", "events");
    props.put("file.batch.max.records", "100");
    props.put("state.mirror", "on");
    props.put("store.type", "rocksdb");
    props.put("store.rocksdb.path", state.toString());
    props.put("name", "mirrored-files");
    return props;
  }

  @Test
  void committedOffsetsAreMirroredAndResumeATaskWhoseKafkaOffsetsAreGone() throws Exception {
    Files.writeString(dir.resolve("a.ndjson"), ndjson(0, 400));
    Map<String, String> props = props();
    Map<String, Object> partition;
    // (copied: the lambda below needs an effectively final view)
    long committedAt;
    int committedRecords;
    try (FileTaskHarness h = new FileTaskHarness(props).start();
        StateStore store = StateStores.open(props)) {
      SourceOffsetMirror mirror =
          new SourceOffsetMirror(store, PipelineScopeConfig.from(props), "mirrored-files");
      List<SourceRecord> first = h.pollCount(150);
      partition = new HashMap<>(first.get(0).sourcePartition());
      assertThat(mirror.read(partition)).as("nothing is mirrored before Kafka commits").isEmpty();
      h.commit();
      committedRecords = first.size();
      committedAt = FileOffset.fromMap(first.get(first.size() - 1).sourceOffset()).position();
      h.pollUntil(
          () ->
              mirror
                  .read(partition)
                  .map(o -> FileOffset.fromMap(o).position() == committedAt)
                  .orElse(false));
    }
    // A new task whose Kafka offsets are lost (a new cluster): the mirror knows where it was.
    try (FileTaskHarness fresh = new FileTaskHarness(props).start()) {
      List<SourceRecord> rest = fresh.drain();
      assertThat(rest.get(0).sourcePartition()).isEqualTo(partition);
      assertThat(numbers(rest)).isEqualTo(range(400 - rest.size(), 400));
      assertThat(FileOffset.fromMap(rest.get(0).sourceOffset()).line())
          .isEqualTo(400 - rest.size() + 1);
      assertThat(400 - rest.size()).isEqualTo(committedRecords);
    }
  }
}
