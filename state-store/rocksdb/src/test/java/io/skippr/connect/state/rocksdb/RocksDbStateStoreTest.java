package io.skippr.connect.state.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreConfig;
import io.skippr.connect.state.api.StateStoreContractTest;
import io.skippr.connect.state.api.StateStoreException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDbStateStoreTest extends StateStoreContractTest {
  @TempDir Path stateDirectory;

  @Override
  protected Map<String, String> storeConfig() {
    return Map.of(
        StateStoreConfig.STORE_TYPE,
        "rocksdb",
        RocksDbStateStoreProvider.STORE_ROCKSDB_PATH,
        stateDirectory.toString());
  }

  @Test
  void storesInOneJvmShareOneHandlePerDirectory() {
    StateKey key = key(StateKind.OFFSET, "shared");
    try (StateStore second = open(Map.of(), Map.of())) {
      second.put(key, utf8("from second"));
      assertThat(store.get(key).orElseThrow().value()).asString(UTF_8).isEqualTo("from second");
    }
    assertThat(store.get(key)).as("closing one handle keeps the others open").isPresent();
    StateStore third = open(Map.of(), Map.of());
    third.close();
    third.close();
    assertThatThrownBy(() -> third.get(key)).isInstanceOf(IllegalStateException.class);
    assertThat(store.get(key)).isPresent();
  }

  @Test
  void aSecondProcessGetsAOneLineErrorNamingTheDirectory() throws Exception {
    Process child = startChild("open", stateDirectory.toString());
    List<String> stderr;
    try {
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      stderr = lines(child.getErrorStream());
    } finally {
      child.destroyForcibly();
    }
    assertThat(child.exitValue()).as("stderr: %s", stderr).isEqualTo(3);
    List<String> errors = stderr.stream().filter(l -> l.contains("State store directory")).toList();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0))
        .contains(stateDirectory.toRealPath().toString())
        .contains("in use by another process")
        .contains("pid " + ProcessHandle.current().pid());
  }

  @Test
  void rowsWrittenBeforeAProcessIsKilledAreThereAfterReopening() throws Exception {
    store.close();
    Path crashDir = workingDirectory.resolve("crash-state");
    Process child = startChild("write", crashDir.toString(), "200");
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
      assertThat(out.lines().filter("ready"::equals).findFirst())
          .as("the child wrote its rows")
          .isPresent();
      assertThatThrownBy(
              () ->
                  open(
                      Map.of(),
                      Map.of(RocksDbStateStoreProvider.STORE_ROCKSDB_PATH, crashDir.toString())))
          .isInstanceOf(StateStoreException.class)
          .hasMessageContaining("pid " + child.pid());
    } finally {
      child.destroyForcibly(); // SIGKILL: the crash under test
    }
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    store =
        open(Map.of(), Map.of(RocksDbStateStoreProvider.STORE_ROCKSDB_PATH, crashDir.toString()));
    StateScope crashScope = StateScope.ofPipeline("crash");
    assertThat(store.scanAll(crashScope, StateKind.OFFSET.prefix())).hasSize(200);
    assertThat(
            store.get(StateKey.of(crashScope, StateKind.OFFSET, "row-199")).orElseThrow().value())
        .asString(UTF_8)
        .isEqualTo("value-199");
  }

  private Process startChild(String... args) throws IOException {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                RocksDbChildProcess.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).start();
  }

  private static List<String> lines(java.io.InputStream in) throws IOException {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, UTF_8))) {
      return reader.lines().toList();
    }
  }
}
