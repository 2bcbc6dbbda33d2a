package io.skippr.connect.sink.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.sink.log.ProgressMirror;
import io.skippr.connect.sink.log.SinkProgress;
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

  @Test
  void progressRecordedByOneTaskIsFoundByTheNext() throws Exception {
    ProgressMirror first = StoreProgressMirror.open(rocksDb(), MirrorConfig.Mode.ON);
    first.record(new SinkProgress("orders", 2, 41, "orders+2+a+b", 3, 17));
    ((AutoCloseable) first).close();

    ProgressMirror second = StoreProgressMirror.open(rocksDb(), MirrorConfig.Mode.ON);
    try {
      assertThat(second.lookup("orders", 2))
          .contains(new SinkProgress("orders", 2, 41, "orders+2+a+b", 3, 17));
      assertThat(second.lookup("orders", 1)).isEmpty();
    } finally {
      ((AutoCloseable) second).close();
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
