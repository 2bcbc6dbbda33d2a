package io.skippr.connect.state.dynamodb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.skippr.connect.aws.AwsClients;
import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.aws.RetryPolicy;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStoreSettings;
import io.skippr.connect.state.api.StoreEnvironment;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Retries against a scripted DynamoDB endpoint: throttling, 5xx, client errors, lost answers. */
class DynamoDbRetryTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ERROR_PREFIX = "com.amazonaws.dynamodb.v20120810#";

  private record Reply(int status, String body) {}

  private final Deque<Function<JsonNode, Reply>> script = new ArrayDeque<>();
  private final List<String> operations = new ArrayList<>();
  private final List<Duration> sleeps = new ArrayList<>();
  private final StateKey key = StateKey.of(StateScope.ofPipeline("p"), StateKind.OFFSET, "k");
  private HttpServer server;
  private DynamoDbStateStore store;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
    store = storeAt("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    store.close();
    server.stop(0);
  }

  private DynamoDbStateStore storeAt(String endpoint) {
    StateStoreSettings settings =
        StateStoreSettings.resolve(
            Map.of(
                "store.type", "dynamodb", "store.name", "tbl", "store.dynamodb.endpoint", endpoint),
            StoreEnvironment.of(Map.of(), Path.of(".")));
    AwsRetries retries =
        new AwsRetries(
            new RetryPolicy(4, 100, 250), ms -> sleeps.add(Duration.ofMillis(ms)), () -> 1.0);
    Clock clock = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC);
    return new DynamoDbStateStore(
        AwsClients.dynamoDb(DynamoDbStateStoreProvider.aws(settings)),
        "tbl",
        endpoint,
        retries,
        clock);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
    operations.add(target.substring(target.indexOf('.') + 1));
    JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
    Function<JsonNode, Reply> next = script.poll();
    Reply reply = next == null ? error(500, "InternalServerError") : next.apply(request);
    byte[] body = reply.body().getBytes(UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
    exchange.sendResponseHeaders(reply.status(), body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  private static Reply error(int status, String type) {
    return new Reply(
        status,
        "{\"__type\":\"" + ERROR_PREFIX + type + "\",\"message\":\"scripted " + type + "\"}");
  }

  @Test
  void throttlingIsRetriedWithExponentialBackoff() {
    script.add(r -> error(400, "ProvisionedThroughputExceededException"));
    script.add(r -> error(400, "ThrottlingException"));
    script.add(r -> new Reply(200, "{}"));
    assertThat(store.get(key)).isEmpty();
    assertThat(operations).containsExactly("GetItem", "GetItem", "GetItem");
    assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
  }

  @Test
  void serverErrorsAreRetriedABoundedNumberOfTimesThenNamed() {
    for (int i = 0; i < 10; i++) {
      script.add(r -> error(503, "ServiceUnavailable"));
    }
    assertThatThrownBy(() -> store.get(key))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("GetItem default#default#p/offset#k on dynamodb table tbl")
        .hasMessageContaining("failed after 4 attempt(s); last: HTTP 503 ServiceUnavailable");
    assertThat(operations).hasSize(4);
    assertThat(sleeps)
        .as("capped at 250 ms")
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(250));
  }

  @Test
  void clientErrorsAreNotRetried() {
    script.add(r -> error(400, "ValidationException"));
    assertThatThrownBy(() -> store.put(key, new byte[] {1}))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("UpdateItem")
        .hasMessageContaining("scripted ValidationException");
    assertThat(operations).containsExactly("UpdateItem");
    assertThat(sleeps).isEmpty();
  }

  @Test
  void unreachableEndpointsAreRetriedThenNamed() throws IOException {
    int closedPort;
    try (var socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    store.close();
    store = storeAt("http://127.0.0.1:" + closedPort);
    assertThatThrownBy(() -> store.get(key))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("failed after 4 attempt(s)")
        .hasMessageContaining("Connect");
    assertThat(sleeps).hasSize(3);
  }

  @Test
  void aConditionalWriteWhoseAnswerWasLostIsRecognisedAsOurs() {
    JsonNode[] sent = new JsonNode[1];
    script.add(
        r -> {
          sent[0] = r.get("Item");
          return error(500, "InternalServerError");
        });
    script.add(r -> error(400, "ConditionalCheckFailedException"));
    script.add(r -> new Reply(200, "{\"Item\":" + sent[0] + "}"));
    assertThat(store.compareAndSet(key, 4, new byte[] {7}))
        .get()
        .extracting(e -> e.version())
        .isEqualTo(5L);
    assertThat(operations).containsExactly("PutItem", "PutItem", "GetItem");
    assertThat(sent[0].get("version").get("N").asText()).isEqualTo("5");
  }

  @Test
  void aConditionalWriteThatLostTheRaceAfterARetryIsReportedAsLost() {
    script.add(r -> error(500, "InternalServerError"));
    script.add(r -> error(400, "ConditionalCheckFailedException"));
    script.add(
        r ->
            new Reply(
                200,
                "{\"Item\":{\"scope\":{\"S\":\"default#default#p\"},\"key\":{\"S\":\"offset#k\"},"
                    + "\"value\":{\"B\":\"CA==\"},\"version\":{\"N\":\"5\"},"
                    + "\"sha256\":{\"S\":\"beead77994cf573341ec17b58bbf7eb34d2711c993c1d976b128b3188dc1829a\"},"
                    + "\"updated_at\":{\"N\":\"1\"}}}"));
    script.add(r -> error(400, "ConditionalCheckFailedException"));
    assertThat(store.compareAndSet(key, 4, new byte[] {7})).isEmpty();
    assertThat(store.compareAndSet(key, 4, new byte[] {7}))
        .as("no retry: a conditional failure is a plain answer")
        .isEmpty();
    assertThat(operations).containsExactly("PutItem", "PutItem", "GetItem", "PutItem");
  }
}
