package io.skippr.connect.schema.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.skippr.connect.aws.AwsClients;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStorage;
import io.skippr.connect.schema.ContractStorageContractTest;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.testkit.FreePorts;
import io.skippr.connect.testkit.HttpFaultProxy;
import io.skippr.connect.testkit.S3MockServer;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The contract storage on S3 (S3Mock, a real S3 protocol server; each test under a prefix of its
 * own), and what only S3 has: bucket names, prefixes and the errors of a missing bucket, denied
 * access and an unreachable endpoint.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3ContractStoreIT extends ContractStorageContractTest {
  static final String BUCKET = "contracts";
  private static final AtomicInteger RUNS = new AtomicInteger();
  private static final Contract CPU =
      new Contract("cpu", SchemaBuilder.struct().field("v", Schema.FLOAT64_SCHEMA).build());

  private static S3MockServer server;
  private static HttpFaultProxy atomic;
  private static S3Client raw;
  // A field, not a @BeforeEach: the contract test opens its storage before subclass set-up runs.
  private final String prefix = "runs/run-" + RUNS.incrementAndGet();

  @BeforeAll
  static void connect(S3MockServer s3) {
    server = s3;
    server.createBucket(BUCKET);
    // S3 applies each request atomically; S3Mock lets an overwrite overlap reads and the
    // conditional checks of other writes, so the stores reach it one request at a time.
    atomic = HttpFaultProxy.start(server.endpoint(), 0, 1, Duration.ofSeconds(1)).serialized(true);
    raw = AwsClients.s3(settings(BUCKET, "", server.endpoint()).aws(), Duration.ofSeconds(30));
  }

  @AfterAll
  static void disconnect() {
    raw.close();
    atomic.close();
  }

  static S3ContractSettings settings(String bucket, String prefix, URI endpoint) {
    return new S3ContractSettings(bucket, prefix, server.aws().withEndpoint(endpoint));
  }

  @Override
  protected ContractStorage storage() {
    return S3ContractStore.open(settings(BUCKET, prefix, atomic.endpoint()));
  }

  @Override
  protected byte[] readRaw(PipelineId id) {
    return raw.getObjectAsBytes(r -> r.bucket(BUCKET).key(key(id))).asByteArray();
  }

  @Override
  protected void writeRaw(PipelineId id, byte[] bytes) {
    raw.putObject(r -> r.bucket(BUCKET).key(key(id)), RequestBody.fromBytes(bytes));
  }

  @Override
  protected String expectedLocation(PipelineId id) {
    return "s3://" + BUCKET + "/" + key(id);
  }

  private String key(PipelineId id) {
    return prefix + "/" + id + "/metadata.json";
  }

  @Test
  void theDocumentIsOneJsonObjectUnderThePrefixAndNothingElseIsWritten() {
    try (ContractStorage storage = storage()) {
      storage.put(ID, CPU);
      storage.put(ID, CPU);
    }
    assertThat(server.objectKeys(BUCKET, prefix + "/"))
        .containsExactly(prefix + "/acme/prod/orders-pipeline/metadata.json");
    assertThat(raw.headObject(r -> r.bucket(BUCKET).key(key(ID))).contentType())
        .isEqualTo("application/json");
  }

  @Test
  void withoutAPrefixKeysStartAtTheTenant() {
    PipelineId id = new PipelineId("no-prefix-" + RUNS.incrementAndGet(), "w", "p");
    try (ContractStorage storage = S3ContractStore.open(settings(BUCKET, "", server.endpoint()))) {
      storage.save(id, List.of(CPU));
      assertThat(storage.location(id)).isEqualTo("s3://contracts/" + id + "/metadata.json");
    }
    assertThat(server.objectKeys(BUCKET, id.tenant() + "/")).containsExactly(id + "/metadata.json");
  }

  @Test
  void aMissingBucketIsAOneLineErrorNamingBucketAndKey() {
    try (ContractStorage storage =
        S3ContractStore.open(settings("no-such-bucket", "p", server.endpoint()))) {
      String key = "s3://no-such-bucket/p/acme/prod/orders-pipeline/metadata.json";
      assertThatThrownBy(() -> storage.load(ID))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessage("GET " + key + ": bucket 'no-such-bucket' does not exist");
      assertThatThrownBy(() -> storage.save(ID, List.of(CPU)))
          .hasMessage("PUT " + key + ": bucket 'no-such-bucket' does not exist");
      assertThatThrownBy(() -> storage.checkReachable(ID))
          .hasMessage("GET " + key + ": bucket 'no-such-bucket' does not exist");
    }
  }

  @Test
  void anUnreachableEndpointIsAOneLineErrorNamingIt() {
    URI nowhere = URI.create("http://127.0.0.1:" + FreePorts.one());
    try (ContractStorage storage = S3ContractStore.open(settings(BUCKET, "p", nowhere))) {
      assertThatThrownBy(() -> storage.load(ID))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageStartingWith(
              "GET s3://contracts/p/acme/prod/orders-pipeline/metadata.json: cannot reach "
                  + nowhere
                  + ": ")
          .hasMessageNotContaining("\n");
    }
  }

  @Test
  void deniedAccessIsAOneLineErrorNamingBucketAndKey() throws Exception {
    // S3Mock grants everything: a server that denies like S3 does stands in for a bucket policy.
    HttpServer denying = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>AccessDenied</Code>"
                + "<Message>Access Denied</Message></Error>")
            .getBytes(StandardCharsets.UTF_8);
    denying.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.getResponseHeaders().add("Content-Type", "application/xml");
          exchange.sendResponseHeaders(403, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    denying.start();
    URI endpoint = URI.create("http://127.0.0.1:" + denying.getAddress().getPort());
    try (ContractStorage storage = S3ContractStore.open(settings("locked", "", endpoint))) {
      String key = "s3://locked/acme/prod/orders-pipeline/metadata.json";
      assertThatThrownBy(() -> storage.load(ID))
          .hasMessage(
              "GET "
                  + key
                  + ": access denied (AccessDenied; check the credentials and the bucket policy)");
      assertThatThrownBy(() -> storage.put(ID, CPU))
          .hasMessageStartingWith("GET " + key + ": access denied");
      assertThatThrownBy(() -> storage.save(ID, List.of(CPU)))
          .hasMessageStartingWith("PUT " + key + ": access denied");
    } finally {
      denying.stop(0);
    }
  }
}
