package io.skippr.connect.state.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
  void defaultsToRocksDbWithEncryptedSecrets() {
    StateStoreSettings settings = resolve(Map.of(), Map.of());
    assertThat(settings.type()).isEqualTo(new StateStoreSettings.Origin<>("rocksdb", "default"));
    assertThat(settings.name()).isEmpty();
    assertThat(settings.encryption()).isTrue();
  }

  @Test
  void aBackendReadsItsOwnKeysStripped() {
    StateStoreSettings settings =
        resolve(Map.of("store.rocksdb.path", " /x/y ", "store.dynamodb.region", " "), Map.of());
    assertThat(settings.configured("store.rocksdb.path")).contains("/x/y");
    assertThat(settings.configured("store.dynamodb.region")).isEmpty();
    assertThat(settings.configured("store.dynamodb.endpoint")).isEmpty();
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
  void aBadEncryptionSettingIsNamed() {
    assertThatThrownBy(() -> resolve(Map.of("store.encryption", "maybe"), Map.of()))
        .hasMessageContaining("store.encryption=maybe");
  }

  @Test
  void toStringRevealsNoSecrets() {
    StateStoreSettings settings =
        resolve(Map.of(), Map.of(SecretCodec.ENV_STATE_KEY, StateStoreContractTest.KEY_A));
    assertThat(settings.toString()).doesNotContain(StateStoreContractTest.KEY_A);
  }
}
