package io.skippr.connect.state.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.aws.AwsSettings;
import io.skippr.connect.state.api.StateStoreConfig;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStoreSettings;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DynamoDB backend's own settings, found by ServiceLoader through the API. */
class DynamoDbStateStoreProviderTest {
  @TempDir Path dir;

  private AwsSettings aws(Map<String, String> config, Map<String, String> env) {
    return DynamoDbStateStoreProvider.aws(
        StateStoreSettings.resolve(config, StoreEnvironment.of(env, dir)));
  }

  @Test
  void endpointAndRegionComeFromItsKeysElseTheEnvironment() {
    AwsSettings local =
        aws(
            Map.of("store.dynamodb.endpoint", "http://127.0.0.1:4567"),
            Map.of("AWS_DEFAULT_REGION", "eu-west-1"));
    assertThat(local.endpoint()).isEqualTo(URI.create("http://127.0.0.1:4567"));
    assertThat(local.region()).isEqualTo("eu-west-1");
    assertThat(local.isLoopback()).isTrue();
    assertThat(
            aws(Map.of("store.dynamodb.region", "us-west-2"), Map.of("AWS_REGION", "eu-west-1"))
                .region())
        .isEqualTo("us-west-2");
    assertThat(aws(Map.of(), Map.of()).region()).as("the SDK's chain decides").isNull();
  }

  @Test
  void itsKeysJoinTheConnectorsConfigDefWithValidators() {
    ConfigDef def = StateStoreConfig.define(new ConfigDef());
    assertThat(def.names())
        .contains(
            "store.dynamodb.endpoint", "store.dynamodb.region", "store.dynamodb.create.table");
    assertThat(StateStores.knownTypes()).contains("dynamodb");
    assertThatThrownBy(() -> new AbstractConfig(def, Map.of("store.dynamodb.endpoint", "x")))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new AbstractConfig(def, Map.of("store.dynamodb.region", "EU WEST")))
        .isInstanceOf(ConfigException.class);
    AbstractConfig config =
        new AbstractConfig(
            def, Map.of("store.type", "dynamodb", "store.dynamodb.create.table", "true"));
    StateStoreSettings settings =
        StateStoreConfig.from(config, StoreEnvironment.of(Map.of("SKIPPR_STORE_NAME", "n"), dir));
    assertThat(settings.requireName()).isEqualTo("n");
    assertThat(settings.configured("store.dynamodb.create.table")).contains("true");
  }

  @Test
  void openingWithoutANameOrWithABadEndpointFailsBeforeAnyNetworkCall() {
    StoreEnvironment env = StoreEnvironment.of(Map.of("WAL_STORAGE", "clustered"), dir);
    assertThatThrownBy(() -> StateStores.open(Map.of(), env))
        .isInstanceOf(StateStoreException.class)
        .hasMessageStartingWith(
            "store.type=dynamodb (from WAL_STORAGE=clustered) needs a table name");
    assertThatThrownBy(
            () ->
                StateStores.open(
                    Map.of("store.name", "t", "store.dynamodb.endpoint", "localhost:4567"), env))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("localhost:4567");
  }

  @Test
  void credentialCombinationsAreReportedOnTheKeyToChange() {
    String assume = "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider";
    assertThat(
            StateStoreConfig.problems(
                Map.of(
                    "store.dynamodb.credentials.provider.class", assume, "store.type", "dynamodb")))
        .containsOnlyKeys("store.dynamodb.sts.role.arn")
        .hasEntrySatisfying(
            "store.dynamodb.sts.role.arn",
            m -> assertThat(m).contains("store.dynamodb.credentials.provider.class=" + assume));
    assertThat(StateStoreConfig.problems(Map.of("store.dynamodb.sts.role.external.id", "ext-42")))
        .containsOnlyKeys("store.dynamodb.sts.role.external.id");
    assertThat(
            StateStoreConfig.problems(
                Map.of(
                    "store.dynamodb.credentials.provider.class",
                    assume,
                    "store.dynamodb.sts.role.arn",
                    "arn:aws:iam::123456789012:role/state",
                    "store.dynamodb.sts.role.external.id",
                    "ext-42")))
        .isEmpty();
    assertThat(
            StateStoreConfig.problems(
                Map.of("credentials.provider.class", assume, "sts.role.external.id", "x1")))
        .as("the lake's own keys are not the store's")
        .isEmpty();
  }
}
