package io.skippr.connect.lake.state;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.SinkProgress;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink's progress survives in a real RocksDB state store, and a missing store is handled. */
class StoreProgressMirrorTest {
  @TempDir Path dir;

  private Map<String, String> rocksDb() {
    return Map.of("name", "lake", "store.type", "rocksdb", "store.rocksdb.path", dir.toString());
  }

  private static SinkProgress unit(long end, long epoch, long seq, String lake) {
    return new SinkProgress(
        "orders",
        3,
        end,
        String.format("orders+3+%020d+%020d", end - 9, end),
        epoch,
        seq,
        0,
        lake,
        "/lakes/" + lake + "/");
  }

  @Test
  void progressRecordedByOneTaskIsFoundByTheNext() throws Exception {
    ProgressMirror first = StoreProgressMirror.open(rocksDb(), MirrorConfig.Mode.ON);
    first.record(unit(41, 3, 17, "a"));
    ((AutoCloseable) first).close();

    ProgressMirror second = StoreProgressMirror.open(rocksDb(), MirrorConfig.Mode.ON);
    try {
      assertThat(second.lookup("orders", 3)).contains(unit(41, 3, 17, "a"));
      assertThat(second.lookup("orders", 1)).isEmpty();
    } finally {
      ((AutoCloseable) second).close();
    }
  }

  @Test
  void rowsAreJsonUnderTheTopicPartitionKeyAndNameTheirLake() {
    try (StateStore store = StateStores.open(Map.of(), StoreEnvironment.of(Map.of(), dir))) {
      StoreProgressMirror mirror =
          new StoreProgressMirror(store, new StateScope("acme", "ws", "lake"));
      mirror.record(unit(109, 2, 7, "a"));
      assertThat(mirror.key("orders", 3).toString()).isEqualTo("acme#ws#lake/progress#orders/3");
      assertThat(new String(store.get(mirror.key("orders", 3)).orElseThrow().value(), UTF_8))
          .isEqualTo(
              "{\"end_offset\":109,\"compaction_id\":"
                  + "\"orders+3+00000000000000000100+00000000000000000109\",\"epoch\":2,"
                  + "\"log_seq\":7,\"generation\":0,\"lake_id\":\"a\","
                  + "\"lake_location\":\"/lakes/a/\"}");
    }
  }

  @Test
  void aRowNeverMovesBackwardsInItsLakeButAnotherLakeReplacesIt() {
    try (StateStore store = StateStores.open(Map.of(), StoreEnvironment.of(Map.of(), dir))) {
      StoreProgressMirror mirror =
          new StoreProgressMirror(store, new StateScope("acme", "ws", "lake"));
      mirror.record(unit(109, 2, 7, "a"));
      mirror.record(unit(99, 2, 6, "a"));
      mirror.record(unit(119, 1, 9, "a"));
      assertThat(mirror.lookup("orders", 3)).as("older entries").contains(unit(109, 2, 7, "a"));

      mirror.record(unit(119, 3, 1, "a"));
      assertThat(mirror.lookup("orders", 3)).as("newer epoch").contains(unit(119, 3, 1, "a"));

      mirror.record(unit(9, 1, 0, "b"));
      assertThat(mirror.lookup("orders", 3)).as("another lake").contains(unit(9, 1, 0, "b"));

      mirror.forget("orders", 3);
      assertThat(mirror.lookup("orders", 3)).isEmpty();
    }
  }

  @Test
  void anUnavailableStoreIsSkippedInAutoModeAndFailsWhenRequired() {
    Map<String, String> noTable = Map.of("name", "lake", "store.type", "dynamodb");
    assertThat(StoreProgressMirror.open(noTable, MirrorConfig.Mode.AUTO))
        .isSameAs(ProgressMirror.NONE);
    assertThatThrownBy(() -> StoreProgressMirror.open(noTable, MirrorConfig.Mode.ON))
        .hasMessageContaining("store.name");
    assertThat(StoreProgressMirror.open(rocksDb(), MirrorConfig.Mode.OFF))
        .isSameAs(ProgressMirror.NONE);
  }
}
