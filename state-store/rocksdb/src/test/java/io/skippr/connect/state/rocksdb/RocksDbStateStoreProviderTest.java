package io.skippr.connect.state.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreConfig;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStoreSettings;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RocksDB backend's own settings, found by ServiceLoader through the API. */
class RocksDbStateStoreProviderTest {
  @TempDir Path dir;

  private Path path(Map<String, String> config, Map<String, String> env) {
    return RocksDbStateStoreProvider.path(
        StateStoreSettings.resolve(config, StoreEnvironment.of(env, dir)));
  }

  @Test
  void theDirectoryIsTheKeyElseDataDirElseTheWorkingDirectorys() {
    assertThat(path(Map.of(), Map.of())).isEqualTo(dir.resolve("data/state"));
    assertThat(path(Map.of(), Map.of("DATA_DIR", "/var/skippr")))
        .isEqualTo(Path.of("/var/skippr/state"));
    assertThat(path(Map.of("store.rocksdb.path", "/x/y"), Map.of("DATA_DIR", "/var/skippr")))
        .isEqualTo(Path.of("/x/y"));
    assertThat(path(Map.of("store.rocksdb.path", "rel"), Map.of())).isEqualTo(dir.resolve("rel"));
  }

  @Test
  void itsKeyJoinsTheConnectorsConfigDefAndItsNamesAreKnownTypes() {
    ConfigDef def = StateStoreConfig.define(new ConfigDef());
    assertThat(def.names())
        .contains("store.type", "store.name", "store.encryption", "store.rocksdb.path");
    assertThat(StateStores.knownTypes()).contains("rocksdb", "sled");
    assertThatThrownBy(() -> new AbstractConfig(def, Map.of("store.type", "redis")))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new AbstractConfig(def, Map.of("store.rocksdb.path", " ")))
        .isInstanceOf(ConfigException.class);
    AbstractConfig config =
        new AbstractConfig(def, Map.of("store.type", "Sled", "store.rocksdb.path", "/p"));
    StateStoreSettings settings = StateStoreConfig.from(config, StoreEnvironment.of(Map.of(), dir));
    assertThat(settings.type().value()).isEqualTo("sled");
    assertThat(settings.configured("store.rocksdb.path")).contains("/p");
  }

  @Test
  void sledAliasOpensRocksDbAndAnUnknownTypeIsNamed() {
    try (StateStore store =
        StateStores.open(Map.of("store.type", "sled"), StoreEnvironment.of(Map.of(), dir))) {
      assertThat(store.describe()).isEqualTo("rocksdb at " + dir.resolve("data/state"));
    }
    assertThatThrownBy(
            () ->
                StateStores.open(Map.of("store.type", "redis"), StoreEnvironment.of(Map.of(), dir)))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("store.type=redis (from connector config store.type)")
        .hasMessageContaining("rocksdb")
        .hasMessageContaining("sled");
  }
}
