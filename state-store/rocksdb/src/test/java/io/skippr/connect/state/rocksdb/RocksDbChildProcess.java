package io.skippr.connect.state.rocksdb;

import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * A second OS process for {@link RocksDbStateStoreTest}. {@code open <dir>}: open the store and
 * exit (3 and the error on stderr if it fails). {@code write <dir> <n>}: write n rows, print
 * "ready", then wait to be killed (or for stdin to close).
 */
public final class RocksDbChildProcess {
  private RocksDbChildProcess() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    Map<String, String> config = Map.of("store.type", "sled", "store.rocksdb.path", dir.toString());
    StateStore store;
    try {
      store = StateStores.open(config, StoreEnvironment.of(Map.of(), dir));
    } catch (StateStoreException e) {
      System.err.println(e.getMessage());
      System.exit(3);
      return;
    }
    if ("write".equals(args[0])) {
      StateScope scope = StateScope.ofPipeline("crash");
      int rows = Integer.parseInt(args[2]);
      for (int i = 0; i < rows; i++) {
        store.put(
            StateKey.of(scope, StateKind.OFFSET, "row-" + i),
            ("value-" + i).getBytes(StandardCharsets.UTF_8));
      }
      System.out.println("ready");
      System.out.flush();
      // Wait to be killed; if the test JVM dies first, stdin closes and this process ends too.
      while (System.in.read() != -1) {
        // nothing is ever sent
      }
      System.exit(4);
    }
    store.close();
    System.out.println("opened");
  }
}
