package io.skippr.connect.state.rocksdb;

import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreConfig;
import io.skippr.connect.state.api.StateStoreProvider;
import io.skippr.connect.state.api.StateStoreSettings;
import io.skippr.connect.state.api.StoreEnvironment;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** {@code store.type=rocksdb} (alias {@code sled}): a local directory, one process at a time. */
public final class RocksDbStateStoreProvider implements StateStoreProvider {
  public static final String TYPE = "rocksdb";

  public static final String STORE_ROCKSDB_PATH = "store.rocksdb.path";
  public static final String STORE_ROCKSDB_PATH_DOC =
      "RocksDB directory. Unset: ${DATA_DIR}/state, else ./data/state. One process per directory.";

  /** The environment variable the default directory follows. */
  public static final String DATA_DIR_ENV = "DATA_DIR";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Set<String> aliases() {
    return Set.of("sled");
  }

  @Override
  public ConfigDef configDef() {
    return new ConfigDef()
        .define(
            STORE_ROCKSDB_PATH,
            Type.STRING,
            null,
            StateStoreConfig.optional((k, v) -> {}),
            Importance.MEDIUM,
            STORE_ROCKSDB_PATH_DOC,
            StateStoreConfig.GROUP,
            10,
            Width.LONG,
            "RocksDB directory");
  }

  @Override
  public StateStore open(StateStoreSettings settings) {
    return new RocksDbStateStore(SharedRocksDb.acquire(path(settings)), Clock.systemUTC());
  }

  /**
   * The directory: {@value #STORE_ROCKSDB_PATH}, else {@code $DATA_DIR/state}, else {@code
   * ./data/state}; relative paths against the working directory.
   */
  public static Path path(StateStoreSettings settings) {
    StoreEnvironment env = settings.environment();
    Path base = env.workingDirectory();
    return settings
        .configured(STORE_ROCKSDB_PATH)
        .map(base::resolve)
        .or(() -> env.variable(DATA_DIR_ENV).map(d -> base.resolve(d).resolve("state")))
        .orElse(base.resolve("data").resolve("state"))
        .normalize();
  }
}
