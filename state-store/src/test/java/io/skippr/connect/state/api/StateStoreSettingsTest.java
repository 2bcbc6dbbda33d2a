package io.skippr.connect.state.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateStoreSettingsTest {
  @TempDir Path dir;

  private StateStoreSettings resolve(Map<String, String> config, Map<String, String> env) {
    return StateStoreSettings.resolve(config, StoreEnvironment.of(env, dir));
  }

  private void yaml(String text) throws IOException {
    Files.writeString(dir.resolve("skippr.yml"), text);
  }

  @Test
  void defaultsToRocksDbUnderDataState() {
    StateStoreSettings settings = resolve(Map.of(), Map.of());
    assertThat(settings.type()).isEqualTo(new StateStoreSettings.Origin<>("rocksdb", "default"));
    assertThat(settings.rocksDbPath()).isEqualTo(dir.resolve("data/state"));
    assertThat(settings.name()).isEmpty();
    assertThat(settings.encryption()).isTrue();
    assertThat(settings.createTable()).isFalse();
  }

  @Test
  void dataDirMovesTheRocksDbDirectoryAndTheConnectorConfigWins() {
    assertThat(resolve(Map.of(), Map.of("DATA_DIR", "/var/skippr")).rocksDbPath())
        .isEqualTo(Path.of("/var/skippr/state"));
    assertThat(
            resolve(Map.of("store.rocksdb.path", "/x/y"), Map.of("DATA_DIR", "/var/skippr"))
                .rocksDbPath())
        .isEqualTo(Path.of("/x/y"));
  }

  @Test
  void aFlowMappingInTheFileIsReadLikeABlockOne() throws IOException {
    yaml("skippr: {store: {type: dynamodb, name: flow-table}}\n");
    StateStoreSettings settings = resolve(Map.of(), Map.of());
    assertThat(settings.type().value()).isEqualTo("dynamodb");
    assertThat(settings.requireName()).isEqualTo("flow-table");
  }

  @Test
  void aFileThatIsNotYamlIsAnErrorNamingIt() throws IOException {
    yaml("skippr:\n  store: [unclosed\n");
    assertThatThrownBy(() -> resolve(Map.of(), Map.of()).type())
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("skippr.yml: not valid YAML (line ");
  }

  @Test
  void connectorConfigBeatsEnvironmentBeatsFile() throws IOException {
    yaml("skippr:\n  store:\n    type: sled\n    name: from-file\n");
    assertThat(resolve(Map.of(), Map.of()).type().value()).isEqualTo("sled");
    assertThat(resolve(Map.of(), Map.of()).name().orElseThrow().source())
        .startsWith("skippr.store.name in ")
        .endsWith("skippr.yml");

    Map<String, String> env = Map.of("SKIPPR_STORE_TYPE", "DynamoDB", "SKIPPR_STORE_NAME", "env");
    StateStoreSettings fromEnv = resolve(Map.of(), env);
    assertThat(fromEnv.type())
        .isEqualTo(new StateStoreSettings.Origin<>("dynamodb", "SKIPPR_STORE_TYPE"));
    assertThat(fromEnv.requireName()).isEqualTo("env");

    StateStoreSettings fromConfig =
        resolve(Map.of("store.type", "rocksdb", "store.name", "cfg"), env);
    assertThat(fromConfig.type().value()).isEqualTo("rocksdb");
    assertThat(fromConfig.type().source()).isEqualTo("connector config store.type");
    assertThat(fromConfig.requireName()).isEqualTo("cfg");
  }

  @Test
  void clusteredWalWithoutATypeMeansDynamoDb() throws IOException {
    yaml("skippr.store.type: sled\n");
    assertThat(resolve(Map.of(), Map.of("WAL_STORAGE", "clustered")).type())
        .isEqualTo(new StateStoreSettings.Origin<>("dynamodb", "WAL_STORAGE=clustered"));
    assertThat(
            resolve(Map.of(), Map.of("WAL_STORAGE", "clustered", "SKIPPR_STORE_TYPE", "sled"))
                .type()
                .value())
        .isEqualTo("sled");
    assertThat(resolve(Map.of(), Map.of("WAL_STORAGE", "disk")).type().value()).isEqualTo("sled");
  }

  @Test
  void skipprConfigPointsAtAnotherFile() throws IOException {
    Path file = dir.resolve("conf/other.yml");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "skippr:\n  store:\n    type: dynamodb # shared\n    name: 'tbl'\n");
    StateStoreSettings settings = resolve(Map.of(), Map.of("SKIPPR_CONFIG", file.toString()));
    assertThat(settings.type().value()).isEqualTo("dynamodb");
    assertThat(settings.requireName()).isEqualTo("tbl");
    assertThatThrownBy(() -> resolve(Map.of(), Map.of("SKIPPR_CONFIG", "missing.yml")))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("SKIPPR_CONFIG points to");
  }

  @Test
  void dynamoDbWithoutANameFailsWithAClearError() {
    StateStoreSettings settings = resolve(Map.of(), Map.of("SKIPPR_STORE_TYPE", "dynamodb"));
    assertThatThrownBy(settings::requireName)
        .isInstanceOf(StateStoreException.class)
        .hasMessage(
            "store.type=dynamodb (from SKIPPR_STORE_TYPE) needs a table name: set store.name in"
                + " the connector config, SKIPPR_STORE_NAME in the environment, or"
                + " skippr.store.name in skippr.yml");
  }

  @Test
  void openingDynamoDbWithoutANameFailsBeforeAnyNetworkCall() {
    StoreEnvironment env = StoreEnvironment.of(Map.of("WAL_STORAGE", "clustered"), dir);
    assertThatThrownBy(() -> StateStores.open(Map.of(), env))
        .isInstanceOf(StateStoreException.class)
        .hasMessageStartingWith(
            "store.type=dynamodb (from WAL_STORAGE=clustered) needs a table name");
  }

  @Test
  void unknownTypesAndBadValuesAreNamed() {
    assertThatThrownBy(
            () ->
                StateStores.open(Map.of("store.type", "redis"), StoreEnvironment.of(Map.of(), dir)))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("store.type=redis (from connector config store.type)")
        .hasMessageContaining("rocksdb")
        .hasMessageContaining("sled");
    assertThatThrownBy(() -> resolve(Map.of("store.encryption", "maybe"), Map.of()))
        .hasMessageContaining("store.encryption=maybe");
    assertThatThrownBy(() -> resolve(Map.of("store.dynamodb.endpoint", "localhost:4567"), Map.of()))
        .hasMessageContaining("store.dynamodb.endpoint=localhost:4567");
  }

  @Test
  void configDefFragmentValidatesAndResolves() {
    ConfigDef def = StateStoreConfig.define(new ConfigDef());
    assertThat(def.names())
        .contains(
            "store.type",
            "store.name",
            "store.rocksdb.path",
            "store.dynamodb.endpoint",
            "store.dynamodb.region",
            "store.dynamodb.create.table",
            "store.encryption");
    assertThatThrownBy(() -> new AbstractConfig(def, Map.of("store.type", "redis")))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new AbstractConfig(def, Map.of("store.name", "a b")))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new AbstractConfig(def, Map.of("store.encryption", "maybe")))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new AbstractConfig(def, Map.of("store.dynamodb.endpoint", "x")))
        .isInstanceOf(ConfigException.class);

    AbstractConfig config =
        new AbstractConfig(
            def, Map.of("store.type", "Sled", "store.dynamodb.create.table", "true"));
    StateStoreSettings settings =
        StateStoreConfig.from(config, StoreEnvironment.of(Map.of("SKIPPR_STORE_NAME", "n"), dir));
    assertThat(settings.type().value()).isEqualTo("sled");
    assertThat(settings.requireName()).isEqualTo("n");
    assertThat(settings.createTable()).isTrue();
  }

  @Test
  void sledAliasOpensRocksDb() {
    try (StateStore store =
        StateStores.open(Map.of("store.type", "sled"), StoreEnvironment.of(Map.of(), dir))) {
      assertThat(store.describe()).isEqualTo("rocksdb at " + dir.resolve("data/state"));
    }
  }

  @Test
  void toStringRevealsNoSecrets() {
    StateStoreSettings settings =
        resolve(Map.of(), Map.of(SecretCodec.ENV_STATE_KEY, StateStoreContractTest.KEY_A));
    assertThat(settings.toString()).doesNotContain(StateStoreContractTest.KEY_A);
  }
}
