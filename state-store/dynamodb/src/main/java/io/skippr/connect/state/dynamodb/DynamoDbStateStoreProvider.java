package io.skippr.connect.state.dynamodb;

import io.skippr.connect.aws.AwsClients;
import io.skippr.connect.aws.AwsCredentialsConfig;
import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.aws.AwsSettings;
import io.skippr.connect.aws.ConfigLookup;
import io.skippr.connect.aws.RetryPolicy;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreConfig;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStoreProvider;
import io.skippr.connect.state.api.StateStoreSettings;
import io.skippr.connect.state.api.StoreEnvironment;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code store.type=dynamodb}: one table shared by every worker, named by {@code store.name}. */
public final class DynamoDbStateStoreProvider implements StateStoreProvider {
  public static final String TYPE = "dynamodb";

  public static final String STORE_DYNAMODB_ENDPOINT = "store.dynamodb.endpoint";
  public static final String STORE_DYNAMODB_ENDPOINT_DOC =
      "DynamoDB endpoint URL for local or compatible servers, e.g. http://127.0.0.1:4567. "
          + "Unset: the AWS endpoint of the region.";

  public static final String STORE_DYNAMODB_REGION = "store.dynamodb.region";
  public static final String STORE_DYNAMODB_REGION_DOC =
      "AWS region of the table. Unset: the AWS default chain (AWS_REGION, profile), or us-east-1 "
          + "with a local endpoint.";

  public static final String STORE_DYNAMODB_CREATE_TABLE = "store.dynamodb.create.table";
  public static final String STORE_DYNAMODB_CREATE_TABLE_DOC =
      "Create the DynamoDB table (on-demand billing) if it is missing, and wait until it is ACTIVE.";

  private static final Duration TABLE_TIMEOUT = Duration.ofMinutes(5);

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public ConfigDef configDef() {
    return AwsCredentialsConfig.DYNAMODB_STORE.define(ownKeys(), StateStoreConfig.GROUP, 23);
  }

  private static ConfigDef ownKeys() {
    int order = 20;
    return new ConfigDef()
        .define(
            STORE_DYNAMODB_ENDPOINT,
            Type.STRING,
            null,
            StateStoreConfig.optional(DynamoDbStateStoreProvider::validateEndpoint),
            Importance.LOW,
            STORE_DYNAMODB_ENDPOINT_DOC,
            StateStoreConfig.GROUP,
            ++order,
            Width.LONG,
            "DynamoDB endpoint")
        .define(
            STORE_DYNAMODB_REGION,
            Type.STRING,
            null,
            StateStoreConfig.optional(DynamoDbStateStoreProvider::validateRegion),
            Importance.LOW,
            STORE_DYNAMODB_REGION_DOC,
            StateStoreConfig.GROUP,
            ++order,
            Width.SHORT,
            "DynamoDB region")
        .define(
            STORE_DYNAMODB_CREATE_TABLE,
            Type.BOOLEAN,
            false,
            null,
            Importance.LOW,
            STORE_DYNAMODB_CREATE_TABLE_DOC,
            StateStoreConfig.GROUP,
            ++order,
            Width.SHORT,
            "Create table");
  }

  /**
   * The credential keys' combinations ({@code store.dynamodb.credentials.provider.class} that
   * assumes a role without {@code store.dynamodb.sts.role.arn}, an external id without a role), as
   * the lake sink's {@code s3.*} ones are checked.
   */
  @Override
  public Map<String, String> problems(Map<String, String> props) {
    return AwsCredentialsConfig.DYNAMODB_STORE.problems(ConfigLookup.of(props));
  }

  @Override
  public StateStore open(StateStoreSettings settings) {
    return open(settings, new AwsRetries(RetryPolicy.STANDARD), Clock.systemUTC());
  }

  /** Opens the store with its own retries and clock (tests). */
  static DynamoDbStateStore open(StateStoreSettings settings, AwsRetries retries, Clock clock) {
    String table = settings.requireName();
    AwsSettings aws = aws(settings);
    String location =
        (aws.endpoint() == null ? "AWS" : aws.endpoint().toString())
            + (aws.region() == null ? "" : ", " + aws.region());
    DynamoDbClient client;
    try {
      client = AwsClients.dynamoDb(aws);
    } catch (IllegalArgumentException e) {
      throw new StateStoreException(
          "cannot use DynamoDB table "
              + table
              + ": "
              + e.getMessage()
              + "; set "
              + STORE_DYNAMODB_REGION
              + " or AWS_REGION",
          e);
    }
    try {
      boolean create =
          settings.configured(STORE_DYNAMODB_CREATE_TABLE).map(Boolean::parseBoolean).orElse(false);
      DynamoDbTable.ensure(client, retries, table, create, TABLE_TIMEOUT);
    } catch (RuntimeException e) {
      client.close();
      throw e instanceof StateStoreException
          ? e
          : new StateStoreException(
              "cannot use DynamoDB table " + table + " (" + location + "): " + e.getMessage(), e);
    }
    return new DynamoDbStateStore(client, table, location, retries, clock);
  }

  /**
   * How to reach the table: {@value #STORE_DYNAMODB_ENDPOINT} and {@value #STORE_DYNAMODB_REGION},
   * else {@code AWS_REGION} or {@code AWS_DEFAULT_REGION}, else the SDK's chain ({@code us-east-1}
   * for a local endpoint); credentials from the SDK's chain, with the role of {@code
   * store.dynamodb.sts.role.arn} assumed on top.
   */
  static AwsSettings aws(StateStoreSettings settings) {
    StoreEnvironment env = settings.environment();
    AwsSettings aws = AwsSettings.defaults();
    try {
      aws =
          aws.withEndpoint(
              settings
                  .configured(STORE_DYNAMODB_ENDPOINT)
                  .map(AwsSettings::parseEndpoint)
                  .orElse(null));
      String region =
          settings
              .configured(STORE_DYNAMODB_REGION)
              .or(() -> env.variable("AWS_REGION"))
              .or(() -> env.variable("AWS_DEFAULT_REGION"))
              .orElse(null);
      return AwsCredentialsConfig.DYNAMODB_STORE.apply(
          aws.withRegion(region), ConfigLookup.of(key -> settings.configured(key).orElse(null)));
    } catch (IllegalArgumentException | ConfigException e) {
      throw new StateStoreException(
          "the DynamoDB state store settings are wrong: " + e.getMessage(), e);
    }
  }

  private static void validateEndpoint(String key, String value) {
    try {
      AwsSettings.parseEndpoint(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, value, e.getMessage());
    }
  }

  private static void validateRegion(String key, String value) {
    if (!AwsSettings.isRegionName(value)) {
      throw new ConfigException(key, value, "expected a region name such as eu-west-1");
    }
  }
}
