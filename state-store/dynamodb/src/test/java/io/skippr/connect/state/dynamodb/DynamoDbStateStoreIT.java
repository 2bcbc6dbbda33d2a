package io.skippr.connect.state.dynamodb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreConfig;
import io.skippr.connect.state.api.StateStoreContractTest;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import io.skippr.connect.testkit.DynaliteServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

class DynamoDbStateStoreIT extends StateStoreContractTest {
  private static final String TABLE = "skippr-state";
  private static DynaliteServer dynalite;

  @BeforeAll
  static void startDynalite() {
    dynalite = DynaliteServer.start();
  }

  @AfterAll
  static void stopDynalite() {
    dynalite.close();
  }

  @Override
  protected Map<String, String> storeConfig() {
    return Map.of(
        StateStoreConfig.STORE_TYPE,
        "dynamodb",
        StateStoreConfig.STORE_NAME,
        TABLE,
        DynamoDbStateStoreProvider.STORE_DYNAMODB_ENDPOINT,
        dynalite.endpoint().toString(),
        DynamoDbStateStoreProvider.STORE_DYNAMODB_CREATE_TABLE,
        "true");
  }

  @Test
  void aMissingTableIsNamedUnlessCreationIsAllowed() {
    Map<String, String> config = new HashMap<>(storeConfig());
    config.put(StateStoreConfig.STORE_NAME, "never-created");
    config.put(DynamoDbStateStoreProvider.STORE_DYNAMODB_CREATE_TABLE, "false");
    assertThatThrownBy(
            () -> StateStores.open(config, StoreEnvironment.of(Map.of(), workingDirectory)))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("DynamoDB table never-created does not exist")
        .hasMessageContaining("store.dynamodb.create.table=true");
  }

  @Test
  void aTableNameIsRequired() {
    Map<String, String> config = new HashMap<>(storeConfig());
    config.remove(StateStoreConfig.STORE_NAME);
    assertThatThrownBy(
            () -> StateStores.open(config, StoreEnvironment.of(Map.of(), workingDirectory)))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining(
            "store.type=dynamodb (from connector config store.type) needs a table name");
  }

  @Test
  void aTableWithOtherKeysIsRefused() {
    try (DynamoDbClient client =
        DynamoDbClient.builder()
            .endpointOverride(dynalite.endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
            .build()) {
      client.createTable(
          r ->
              r.tableName("other-keys")
                  .keySchema(
                      KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName("id")
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .billingMode(BillingMode.PAY_PER_REQUEST));
    }
    Map<String, String> config = new HashMap<>(storeConfig());
    config.put(StateStoreConfig.STORE_NAME, "other-keys");
    assertThatThrownBy(
            () -> StateStores.open(config, StoreEnvironment.of(Map.of(), workingDirectory)))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("needs partition key scope and sort key key");
  }

  @Test
  void rowsSurviveAServerKilledAndRestartedOnTheSameData() {
    Path data = workingDirectory.resolve("dynalite-data");
    StateKey key = key(StateKind.OFFSET, "durable");
    Map<String, String> config = new HashMap<>(storeConfig());
    try (DynaliteServer first = DynaliteServer.start(data)) {
      config.put(DynamoDbStateStoreProvider.STORE_DYNAMODB_ENDPOINT, first.endpoint().toString());
      try (StateStore s =
          StateStores.open(config, StoreEnvironment.of(Map.of(), workingDirectory))) {
        s.put(key, utf8("kept"));
      }
    }
    try (DynaliteServer second = DynaliteServer.start(data)) {
      config.put(DynamoDbStateStoreProvider.STORE_DYNAMODB_ENDPOINT, second.endpoint().toString());
      try (StateStore s =
          StateStores.open(config, StoreEnvironment.of(Map.of(), workingDirectory))) {
        StateEntry row = s.get(key).orElseThrow();
        assertThat(row.value()).asString(UTF_8).isEqualTo("kept");
        assertThat(row.version()).isEqualTo(1);
      }
    }
  }

  @Test
  void aCreatedTableIsUsedOnlyOnceItIsActive() {
    try (DynaliteServer slow = DynaliteServer.start(null, Duration.ofMillis(1500))) {
      Map<String, String> config = new HashMap<>(storeConfig());
      config.put(DynamoDbStateStoreProvider.STORE_DYNAMODB_ENDPOINT, slow.endpoint().toString());
      try (StateStore s =
          StateStores.open(config, StoreEnvironment.of(Map.of(), workingDirectory))) {
        assertThat(s.put(key(StateKind.OFFSET, "first"), utf8("x")).version()).isEqualTo(1);
      }
    }
  }

  @Test
  void valuesTooLargeForOneItemAreRefusedBeforeSending() {
    byte[] big = new byte[DynamoDbStateStore.MAX_VALUE_BYTES + 1];
    assertThatThrownBy(() -> store.put(key(StateKind.PROGRESS, "big"), big))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("exceeds what one DynamoDB item holds");
    byte[] largest = new byte[DynamoDbStateStore.MAX_VALUE_BYTES];
    assertThat(store.put(key(StateKind.PROGRESS, "largest"), largest).version()).isEqualTo(1);
    assertThat(store.get(key(StateKind.PROGRESS, "largest")).orElseThrow().value())
        .hasSize(largest.length);
  }
}
