package io.skippr.connect.state.dynamodb;

import static io.skippr.connect.state.dynamodb.DynamoDbTable.KEY;
import static io.skippr.connect.state.dynamodb.DynamoDbTable.SCOPE;
import static io.skippr.connect.state.dynamodb.DynamoDbTable.SHA256;
import static io.skippr.connect.state.dynamodb.DynamoDbTable.UPDATED_AT;
import static io.skippr.connect.state.dynamodb.DynamoDbTable.VALUE;
import static io.skippr.connect.state.dynamodb.DynamoDbTable.VERSION;

import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.common.Sha256;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StatePage;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * One table, partition key {@code scope}, sort key {@code key}; attributes value (binary), version
 * (number), sha256, updated_at (epoch millis). Every write is a single-item conditional write; no
 * transactions are used.
 */
public final class DynamoDbStateStore implements StateStore {
  /** One item holds at most 400 KB including names and keys; leave room for those. */
  static final int MAX_VALUE_BYTES = 400 * 1024 - 4 * 1024;

  private final DynamoDbClient client;
  private final String table;
  private final String location;
  private final AwsRetries retries;
  private final Clock clock;
  private final AtomicBoolean closed = new AtomicBoolean();

  DynamoDbStateStore(
      DynamoDbClient client, String table, String location, AwsRetries retries, Clock clock) {
    this.client = client;
    this.table = table;
    this.location = location;
    this.retries = retries;
    this.clock = clock;
  }

  @Override
  public Optional<StateEntry> get(StateKey key) {
    Map<String, AttributeValue> item =
        call(
                "GetItem " + key,
                () ->
                    client.getItem(r -> r.tableName(table).key(itemKey(key)).consistentRead(true)))
            .item();
    return item == null || item.isEmpty() ? Optional.empty() : Optional.of(entry(key, item));
  }

  @Override
  public StateEntry put(StateKey key, byte[] value) {
    checkSize(key, value);
    Instant now = now();
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":v", AttributeValue.fromB(SdkBytes.fromByteArray(value)));
    values.put(":s", AttributeValue.fromS(Sha256.hex(value)));
    values.put(":t", number(now.toEpochMilli()));
    values.put(":one", number(1));
    Map<String, AttributeValue> item =
        call(
                "UpdateItem " + key,
                () ->
                    client.updateItem(
                        r ->
                            r.tableName(table)
                                .key(itemKey(key))
                                .updateExpression(
                                    "SET #value = :v, #sha = :s, #at = :t ADD #version :one")
                                .expressionAttributeNames(names())
                                .expressionAttributeValues(values)
                                .returnValues(ReturnValue.ALL_NEW)))
            .attributes();
    return entry(key, item);
  }

  @Override
  public Optional<StateEntry> compareAndSet(StateKey key, long expectedVersion, byte[] value) {
    if (expectedVersion < 0) {
      throw new IllegalArgumentException("expected version must be >= 0");
    }
    checkSize(key, value);
    Instant now = now();
    String sha = Sha256.hex(value);
    Map<String, AttributeValue> item = new HashMap<>(itemKey(key));
    item.put(VALUE, AttributeValue.fromB(SdkBytes.fromByteArray(value)));
    item.put(VERSION, number(expectedVersion + 1));
    item.put(SHA256, AttributeValue.fromS(sha));
    item.put(UPDATED_AT, number(now.toEpochMilli()));
    AtomicInteger attempts = new AtomicInteger();
    try {
      call(
          "PutItem " + key,
          () -> {
            attempts.incrementAndGet();
            return client.putItem(
                r -> versionCondition(r.tableName(table).item(item), expectedVersion));
          });
    } catch (ConditionalCheckFailedException e) {
      // After a retry the first attempt may have landed and only its answer was lost.
      boolean ours =
          attempts.get() > 1
              && get(key)
                  .filter(
                      current ->
                          current.version() == expectedVersion + 1
                              && current.sha256().equals(sha)
                              && current.updatedAt().equals(now))
                  .isPresent();
      if (!ours) {
        return Optional.empty();
      }
    }
    return Optional.of(new StateEntry(key, value, expectedVersion + 1, sha, now));
  }

  @Override
  public boolean delete(StateKey key) {
    Map<String, AttributeValue> old =
        call(
                "DeleteItem " + key,
                () ->
                    client.deleteItem(
                        r ->
                            r.tableName(table).key(itemKey(key)).returnValues(ReturnValue.ALL_OLD)))
            .attributes();
    return old != null && !old.isEmpty();
  }

  @Override
  public boolean compareAndDelete(StateKey key, long expectedVersion) {
    if (expectedVersion < 1) {
      throw new IllegalArgumentException("expected version of an existing row must be >= 1");
    }
    try {
      call(
          "DeleteItem " + key,
          () ->
              client.deleteItem(
                  r ->
                      r.tableName(table)
                          .key(itemKey(key))
                          .conditionExpression("#version = :expected")
                          .expressionAttributeNames(Map.of("#version", VERSION))
                          .expressionAttributeValues(
                              Map.of(":expected", number(expectedVersion)))));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  @Override
  public StatePage scan(StateScope scope, String keyPrefix, String startAfter, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("scan limit must be >= 1");
    }
    if (startAfter != null
        && !startAfter.startsWith(keyPrefix)
        && Arrays.compareUnsigned(utf8(startAfter), utf8(keyPrefix)) > 0) {
      return new StatePage(List.of(), Optional.empty());
    }
    // DynamoDB refuses a start key outside the prefix; one before it means "from the top".
    Map<String, AttributeValue> exclusiveStart =
        startAfter != null && startAfter.startsWith(keyPrefix)
            ? Map.of(SCOPE, str(scope.encoded()), KEY, str(startAfter))
            : null;
    List<StateEntry> entries = new ArrayList<>();
    do {
      int want = limit + 1 - entries.size();
      Map<String, AttributeValue> start = exclusiveStart;
      QueryResponse page =
          call(
              "Query " + scope + "/" + keyPrefix + "*",
              () -> client.query(r -> query(r, scope, keyPrefix, start, want)));
      for (Map<String, AttributeValue> item : page.items()) {
        entries.add(entry(StateKey.parse(scope, item.get(KEY).s()), item));
      }
      exclusiveStart = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : Map.of();
    } while (!exclusiveStart.isEmpty() && entries.size() <= limit);
    return firstPage(entries, limit);
  }

  /** Up to {@code limit} rows; one row more than the limit proves there is a next page. */
  private static StatePage firstPage(List<StateEntry> entries, int limit) {
    if (entries.size() <= limit) {
      return new StatePage(entries, Optional.empty());
    }
    List<StateEntry> page = entries.subList(0, limit);
    return new StatePage(page, Optional.of(page.get(limit - 1).key().encoded()));
  }

  private QueryRequest.Builder query(
      QueryRequest.Builder request,
      StateScope scope,
      String keyPrefix,
      Map<String, AttributeValue> start,
      int limit) {
    Map<String, String> names = new HashMap<>(Map.of("#scope", SCOPE));
    Map<String, AttributeValue> values = new HashMap<>(Map.of(":scope", str(scope.encoded())));
    String condition = "#scope = :scope";
    if (!keyPrefix.isEmpty()) {
      condition += " AND begins_with(#key, :prefix)";
      names.put("#key", KEY);
      values.put(":prefix", str(keyPrefix));
    }
    return request
        .tableName(table)
        .keyConditionExpression(condition)
        .expressionAttributeNames(names)
        .expressionAttributeValues(values)
        .exclusiveStartKey(start)
        .consistentRead(true)
        .limit(limit);
  }

  @Override
  public String describe() {
    return "dynamodb table " + table + " (" + location + ")";
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      client.close();
    }
  }

  /**
   * Runs a call with retries; a conditional-check failure is the caller's, anything else one clear
   * line.
   */
  <T> T call(String what, Supplier<T> call) {
    ensureOpen();
    try {
      return retries.call(what + " on " + describe(), attempt -> call.get());
    } catch (IOException e) {
      if (e.getCause() instanceof ConditionalCheckFailedException conditional) {
        throw conditional;
      }
      throw new StateStoreException(e.getMessage().replaceAll("\\s+", " "), e);
    }
  }

  static StateEntry entry(StateKey key, Map<String, AttributeValue> item) {
    byte[] value = item.get(VALUE).b().asByteArray();
    String sha = item.get(SHA256).s();
    if (!sha.equals(Sha256.hex(value))) {
      throw new StateStoreException(
          "state row " + key + " is corrupt: its SHA-256 does not match its value");
    }
    return new StateEntry(
        key,
        value,
        Long.parseLong(item.get(VERSION).n()),
        sha,
        Instant.ofEpochMilli(Long.parseLong(item.get(UPDATED_AT).n())));
  }

  private static PutItemRequest.Builder versionCondition(
      PutItemRequest.Builder request, long expectedVersion) {
    if (expectedVersion == 0) {
      request
          .conditionExpression("attribute_not_exists(#key)")
          .expressionAttributeNames(Map.of("#key", KEY));
    } else {
      request
          .conditionExpression("#version = :expected")
          .expressionAttributeNames(Map.of("#version", VERSION))
          .expressionAttributeValues(Map.of(":expected", number(expectedVersion)));
    }
    return request;
  }

  private static Map<String, String> names() {
    return Map.of("#value", VALUE, "#sha", SHA256, "#at", UPDATED_AT, "#version", VERSION);
  }

  static Map<String, AttributeValue> itemKey(StateKey key) {
    return Map.of(SCOPE, str(key.scope().encoded()), KEY, str(key.encoded()));
  }

  private static AttributeValue str(String s) {
    return AttributeValue.fromS(s);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static AttributeValue number(long n) {
    return AttributeValue.fromN(Long.toString(n));
  }

  private Instant now() {
    return Instant.ofEpochMilli(clock.millis());
  }

  private void checkSize(StateKey key, byte[] value) {
    if (value.length > MAX_VALUE_BYTES) {
      throw new StateStoreException(
          "value of "
              + value.length
              + " bytes for "
              + key
              + " exceeds what one DynamoDB item holds ("
              + MAX_VALUE_BYTES
              + " bytes)");
    }
  }

  private void ensureOpen() {
    if (closed.get()) {
      throw new IllegalStateException("this handle on " + describe() + " is closed");
    }
  }
}
