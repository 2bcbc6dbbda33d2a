package io.skippr.connect.state.dynamodb;

import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.state.api.StateStoreException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Checks the table's key schema, optionally creates it, and waits until it is ACTIVE. */
final class DynamoDbTable {
  static final String SCOPE = "scope";
  static final String KEY = "key";
  static final String VALUE = "value";
  static final String VERSION = "version";
  static final String SHA256 = "sha256";
  static final String UPDATED_AT = "updated_at";
  private static final Logger LOG = LoggerFactory.getLogger(DynamoDbTable.class);
  private static final List<KeySchemaElement> KEY_SCHEMA =
      List.of(
          KeySchemaElement.builder().attributeName(SCOPE).keyType(KeyType.HASH).build(),
          KeySchemaElement.builder().attributeName(KEY).keyType(KeyType.RANGE).build());

  private DynamoDbTable() {}

  static void ensure(
      DynamoDbClient client, AwsRetries retries, String table, boolean create, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    TableDescription description = describe(client, retries, table);
    if (description == null) {
      if (!create) {
        throw new StateStoreException(
            "DynamoDB table "
                + table
                + " does not exist: create it (partition key scope, sort key key, both strings) "
                + "or set store.dynamodb.create.table=true");
      }
      createTable(client, retries, table);
    } else {
      checkKeySchema(table, description);
    }
    long pause = 50;
    while (description == null || description.tableStatus() != TableStatus.ACTIVE) {
      if (System.nanoTime() > deadline) {
        throw new StateStoreException(
            "DynamoDB table " + table + " did not become ACTIVE within " + timeout);
      }
      sleep(pause);
      pause = Math.min(pause * 2, 1000);
      description = describe(client, retries, table);
    }
  }

  private static TableDescription describe(
      DynamoDbClient client, AwsRetries retries, String table) {
    try {
      return retries.call(
          "DescribeTable " + table,
          attempt -> client.describeTable(r -> r.tableName(table)).table());
    } catch (IOException e) {
      if (e.getCause() instanceof ResourceNotFoundException) {
        return null;
      }
      throw new StateStoreException(e.getMessage(), e);
    }
  }

  private static void createTable(DynamoDbClient client, AwsRetries retries, String table) {
    LOG.info("Creating DynamoDB table {} for the state store", table);
    try {
      retries.call(
          "CreateTable " + table,
          attempt ->
              client.createTable(
                  r ->
                      r.tableName(table)
                          .keySchema(KEY_SCHEMA)
                          .attributeDefinitions(attribute(SCOPE), attribute(KEY))
                          .billingMode(BillingMode.PAY_PER_REQUEST)));
    } catch (IOException e) {
      if (e.getCause() instanceof ResourceInUseException) {
        LOG.info("DynamoDB table {} is being created by another process", table);
        return;
      }
      throw new StateStoreException(e.getMessage(), e);
    }
  }

  private static AttributeDefinition attribute(String name) {
    return AttributeDefinition.builder()
        .attributeName(name)
        .attributeType(ScalarAttributeType.S)
        .build();
  }

  private static void checkKeySchema(String table, TableDescription description) {
    if (!KEY_SCHEMA.equals(description.keySchema())) {
      throw new StateStoreException(
          "DynamoDB table "
              + table
              + " has key schema "
              + description.keySchema()
              + "; the state store needs partition key scope and sort key key (strings)");
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StateStoreException("interrupted while waiting for the DynamoDB table", e);
    }
  }
}
