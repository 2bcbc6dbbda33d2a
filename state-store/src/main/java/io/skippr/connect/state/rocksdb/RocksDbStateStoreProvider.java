package io.skippr.connect.state.rocksdb;

import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreProvider;
import io.skippr.connect.state.api.StateStoreSettings;
import java.time.Clock;
import java.util.Set;

/** {@code store.type=rocksdb} (alias {@code sled}): a local directory, one process at a time. */
public final class RocksDbStateStoreProvider implements StateStoreProvider {
  public static final String TYPE = "rocksdb";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Set<String> aliases() {
    return Set.of("sled");
  }

  @Override
  public StateStore open(StateStoreSettings settings) {
    return new RocksDbStateStore(SharedRocksDb.acquire(settings.rocksDbPath()), Clock.systemUTC());
  }
}
