package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.state.MirrorConfig;
import io.skippr.connect.lake.state.StoreProgressMirror;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress mirrored into a real RocksDB state store stands in for a lost lake log. */
class MirrorResumeTest {
  private static final TopicPartition TP0 = new TopicPartition(LakeHarness.TOPIC, 0);

  @TempDir Path stateDir;
  private ProgressMirror mirror;

  private ProgressMirror openMirror() {
    mirror =
        StoreProgressMirror.open(
            Map.of(
                "name", "lake", "store.type", "rocksdb", "store.rocksdb.path", stateDir.toString()),
            MirrorConfig.Mode.ON);
    return mirror;
  }

  @AfterEach
  void close() throws Exception {
    if (mirror instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  @Test
  void aPartitionWhoseLogIsGoneResumesAfterTheMirroredCommit() throws Exception {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    LakeHarness h = new LakeHarness(1, 40);
    h.rotation = new RotationConfig(10, 0, -1, 1000, 1L << 30);
    h.mirror = openMirror();
    h.start(lake);
    h.deliver(25); // units 0..9 and 10..19 committed, 20..24 buffered

    InMemoryLakeStorage lostLog = new InMemoryLakeStorage(); // the TP's log is gone ...
    String identity = new LakeLayout().identityKey(); // ... but not the lake
    lostLog.createIfAbsent(identity, lake.read(identity));
    h.start(lostLog);
    assertThat(h.context.seeks).containsEntry(TP0, 20L);
  }

  @Test
  void aNewLakeNeverResumesFromProgressMirroredForAnotherOne() throws Exception {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    LakeHarness h = new LakeHarness(1, 40);
    h.rotation = new RotationConfig(10, 0, -1, 1000, 1L << 30);
    h.mirror = openMirror();
    h.start(lake);
    h.deliver(25);

    h.start(new InMemoryLakeStorage()); // the lake was deleted, or this is another lake
    assertThat(h.context.seeks).doesNotContainKey(TP0);
    assertThat(h.mirror.lookup(LakeHarness.TOPIC, 0)).as("the foreign row is dropped").isEmpty();
    h.position.put(TP0, 0L);
    while (h.deliver(10)) {
      h.commitOffsets();
    }
    h.flushBySchedule();
    assertThat(h.mirror.lookup(LakeHarness.TOPIC, 0))
        .hasValueSatisfying(
            progress -> {
              assertThat(progress.lakeId()).isEqualTo(h.writer.lake().id());
              assertThat(progress.endOffset()).isEqualTo(39);
            });
  }

  @Test
  void aMirrorThatLostItsRowGetsItBackFromTheLakeLog() throws Exception {
    InMemoryLakeStorage lake = new InMemoryLakeStorage();
    LakeHarness h = new LakeHarness(1, 40);
    h.rotation = new RotationConfig(10, 0, -1, 1000, 1L << 30);
    h.start(lake); // no mirror: nothing recorded
    h.deliver(15);

    h.mirror = openMirror();
    assertThat(h.mirror.lookup(LakeHarness.TOPIC, 0)).isEmpty();
    h.start(lake);
    assertThat(h.mirror.lookup(LakeHarness.TOPIC, 0))
        .hasValueSatisfying(progress -> assertThat(progress.endOffset()).isEqualTo(9));
    h.writer.close(List.of(TP0));
  }
}
