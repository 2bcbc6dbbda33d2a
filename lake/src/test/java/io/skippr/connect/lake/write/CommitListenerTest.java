package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.FilesExpired;
import io.skippr.connect.lake.publish.FilesReplaced;
import io.skippr.connect.lake.publish.LogOwnership;
import io.skippr.connect.lake.publish.OpenedTp;
import io.skippr.connect.lake.publish.UnitCommitted;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/**
 * The commit listener sees each commit right after its log entry, and a new owner sees every live
 * file of the TPs it opens; a failing listener never fails the lake.
 */
class CommitListenerTest {
  private static final TopicPartition TP0 = new TopicPartition(LakeHarness.TOPIC, 0);
  private static final TopicPartition TP1 = new TopicPartition(LakeHarness.TOPIC, 1);

  private final InMemoryLakeStorage lake = new InMemoryLakeStorage();
  private final LakeInspector inspector = new LakeInspector(lake);

  /** Remembers every event. */
  static final class Recording implements CommitListener {
    final List<UnitCommitted> committed = new ArrayList<>();
    final List<OpenedTp> opened = new ArrayList<>();
    final List<TopicPartition> closed = new ArrayList<>();
    boolean failing;
    boolean stopped;

    @Override
    public void opened(OpenedTp tp) {
      opened.add(tp);
    }

    @Override
    public void committed(UnitCommitted unit) {
      if (failing) {
        throw new IllegalStateException("catalog down");
      }
      committed.add(unit);
    }

    @Override
    public void replaced(FilesReplaced replaced) {}

    @Override
    public void expired(FilesExpired expired) {}

    @Override
    public void closed(TopicPartition tp) {
      closed.add(tp);
    }

    @Override
    public void close() {
      stopped = true;
    }
  }

  private static LakeHarness harness(Recording listener) {
    LakeHarness h = new LakeHarness(2, 30);
    h.rotation = new RotationConfig(10, 0, -1, 1000, 1L << 30);
    h.listeners = (storage, identity, owner) -> listener;
    return h;
  }

  @Test
  void everyCommitIsToldRightAfterItsLogEntryInLogOrder() throws Exception {
    Recording listener = new Recording();
    LakeHarness h = harness(listener);
    h.start(lake);
    while (h.deliver(7)) {
      // deliver everything
    }
    List<LogEntry.Commit> logged = new ArrayList<>(inspector.commits(TP0));
    logged.addAll(inspector.commits(TP1));
    assertThat(listener.committed).hasSize(logged.size()).hasSize(6);
    for (LogEntry.Commit commit : logged) {
      UnitCommitted told =
          listener.committed.stream().filter(u -> u.id().equals(commit.id())).findFirst().get();
      assertThat(told.files()).isEqualTo(commit.files());
      assertThat(told.epoch()).isEqualTo(commit.epoch());
      assertThat(told.start()).isEqualTo(commit.start());
      assertThat(told.end()).isEqualTo(commit.end());
    }
    assertThat(listener.committed.stream().filter(u -> u.tp().equals(TP0)).map(u -> u.start()))
        .containsExactly(0L, 10L, 20L);
    UnitCommitted last = listener.committed.get(listener.committed.size() - 1);
    assertThat(new LogOwnership(lake).owns(last.tp(), last.epoch(), last.logSeq())).isTrue();
  }

  @Test
  void aNewOwnerIsToldEveryLiveFileOfTheTpsItOpens() throws Exception {
    Recording first = new Recording();
    LakeHarness h = harness(first);
    h.start(lake);
    h.deliver(25);
    assertThat(first.opened).extracting(OpenedTp::tp).containsExactlyInAnyOrder(TP0, TP1);
    assertThat(first.opened).allSatisfy(o -> assertThat(o.liveFiles()).isEmpty());

    Recording second = new Recording();
    h.listeners = (storage, identity, owner) -> second;
    h.start(lake);
    OpenedTp reopened =
        second.opened.stream().filter(o -> o.tp().equals(TP0)).findFirst().orElseThrow();
    assertThat(inspector.commits(TP0)).hasSize(2);
    List<LiveFile> committed =
        inspector.commits(TP0).stream().flatMap(c -> c.files().stream()).toList();
    assertThat(reopened.liveFiles()).containsExactlyInAnyOrderElementsOf(committed);
    assertThat(reopened.epoch()).isEqualTo(2);
    UnitCommitted old = first.committed.get(0);
    assertThat(new LogOwnership(lake).owns(old.tp(), old.epoch(), old.logSeq()))
        .as("the first writer's epoch after the second claimed the TP")
        .isFalse();
  }

  @Test
  void aFailingListenerNeverFailsTheLake() throws Exception {
    Recording listener = new Recording();
    listener.failing = true;
    LakeHarness h = harness(listener);
    h.start(lake);
    while (h.deliver(9)) {
      // deliver everything
    }
    inspector.assertExactlyOnce(LakeHarness.TABLE, List.of(TP0, TP1), 30);
    h.writer.stop();
    assertThat(listener.closed).containsExactlyInAnyOrder(TP0, TP1);
    assertThat(listener.stopped).isTrue();
  }

  @Test
  void icebergEnabledWithoutTheIcebergPartFailsValidationSayingWhatToInstall() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "lake");
    props.put("topics", "orders");
    props.put("topics.dir", "/tmp/lake");
    props.put("iceberg.enabled", "true");
    ConfigValue enabled =
        LakeSinkConfig.validate(props).configValues().stream()
            .filter(v -> v.name().equals("iceberg.enabled"))
            .findFirst()
            .orElseThrow();
    assertThat(enabled.errorMessages()).hasSize(1);
    assertThat(enabled.errorMessages().get(0))
        .contains("skippr-connect-iceberg")
        .doesNotContain("\n");
    assertThatThrownBy(() -> new LakeSinkConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Iceberg support is not installed");
    props.put("iceberg.enabled", "false");
    assertThat(new LakeSinkConfig(props).getBoolean("iceberg.enabled")).isFalse();
  }
}
