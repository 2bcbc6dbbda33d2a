package io.skippr.connect.state.connect;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SinkProgressMirrorTest {
  @TempDir Path dir;
  private StateStore store;
  private SinkProgressMirror mirror;

  @BeforeEach
  void open() {
    store = StateStores.open(Map.of(), StoreEnvironment.of(Map.of(), dir));
    mirror = new SinkProgressMirror(store, new StateScope("acme", "ws", "lake"));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static SinkProgress unit(long end, long epoch, long seq) {
    return new SinkProgress(end, String.format("orders+3+%020d+%020d", end - 9, end), epoch, seq);
  }

  @Test
  void recordsProgressAsJsonUnderTheTopicPartitionKey() {
    assertThat(mirror.read("orders", 3)).isEmpty();
    assertThat(mirror.record("orders", 3, unit(109, 2, 7))).isTrue();

    assertThat(mirror.read("orders", 3)).contains(unit(109, 2, 7));
    assertThat(mirror.key("orders", 3).toString()).isEqualTo("acme#ws#lake/progress#orders/3");
    assertThat(new String(store.get(mirror.key("orders", 3)).orElseThrow().value(), UTF_8))
        .isEqualTo(
            "{\"end_offset\":109,\"compaction_id\":"
                + "\"orders+3+00000000000000000100+00000000000000000109\",\"epoch\":2,\"log_seq\":7}");
    assertThat(mirror.read("orders", 4)).isEmpty();
  }

  @Test
  void neverMovesBackwards() {
    mirror.record("orders", 3, unit(109, 2, 7));
    assertThat(mirror.record("orders", 3, unit(99, 2, 6))).as("older log entry").isFalse();
    assertThat(mirror.record("orders", 3, unit(119, 1, 9))).as("older epoch").isFalse();
    assertThat(mirror.record("orders", 3, unit(109, 2, 7))).as("same entry").isFalse();
    assertThat(mirror.read("orders", 3)).contains(unit(109, 2, 7));

    assertThat(mirror.record("orders", 3, unit(119, 3, 1))).as("newer epoch").isTrue();
    assertThat(mirror.record("orders", 3, unit(129, 3, 2))).isTrue();
    assertThat(mirror.read("orders", 3)).contains(unit(129, 3, 2));

    assertThat(mirror.clear("orders", 3)).isTrue();
    assertThat(mirror.read("orders", 3)).isEmpty();
    assertThat(mirror.record("orders", 3, unit(9, 1, 0))).isTrue();
  }
}
