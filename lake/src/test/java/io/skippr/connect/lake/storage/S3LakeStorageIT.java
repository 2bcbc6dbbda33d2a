package io.skippr.connect.lake.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.aws.AwsClients;
import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.testkit.HttpFaultProxy;
import io.skippr.connect.testkit.S3MockServer;
import java.io.IOException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The storage contract on S3 (S3Mock, a real S3 protocol server), listing in pages of two so every
 * listing pages, and what only S3 has: multipart uploads, prefixes, configuration, retries.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3LakeStorageIT extends LakeStorageContractTest {
  static final String BUCKET = "lake-storage";
  private static final int PART = S3Config.MIN_PART_SIZE;
  private static final AtomicInteger LAKES = new AtomicInteger();

  private static S3MockServer server;
  private static S3Client client;
  private S3Location location;

  @BeforeAll
  static void connect(S3MockServer s3) {
    server = s3;
    server.createBucket(BUCKET);
    client = AwsClients.s3(config().aws(), AwsClients.SOCKET_TIMEOUT);
  }

  @AfterAll
  static void disconnect() {
    client.close();
  }

  @BeforeEach
  void freshLake() {
    location = new S3Location(BUCKET, "lakes/lake-" + LAKES.incrementAndGet());
  }

  static S3Config config() {
    return S3Config.forEndpoint(server.endpoint(), S3MockServer.ACCESS_KEY, S3MockServer.SECRET_KEY)
        .withPartSize(PART)
        .withRetries(3, 10);
  }

  @Override
  S3LakeStorage storage() {
    return new S3LakeStorage(
            client, location, PART, new AwsRetries(S3Config.retryPolicy(3, 10)), false)
        .pageSize(2);
  }

  @Override
  List<String> backendObjects() {
    return stripPrefix(server.objectKeys(BUCKET, location.prefix() + "/"));
  }

  @Override
  List<String> backendUnfinished() {
    return stripPrefix(server.multipartUploads(BUCKET, location.prefix() + "/"));
  }

  private List<String> stripPrefix(List<String> keys) {
    return keys.stream().map(k -> k.substring(location.prefix().length() + 1)).sorted().toList();
  }

  @Override
  String raceUntestableBecause() {
    // Measured: 8 concurrent PUTs with If-None-Match: * to one new key got 200 three times.
    return "S3Mock checks If-None-Match before writing without a lock, so concurrent conditional"
        + " PUTs can all win there; S3 itself makes them atomic";
  }

  /** A crashed writer leaves a multipart upload with a part in it. */
  @Override
  void leaveUnfinished(LakeStorage storage, String key) {
    String objectKey = ((S3LakeStorage) storage).s3Location().objectKey(key);
    String id = client.createMultipartUpload(r -> r.bucket(BUCKET).key(objectKey)).uploadId();
    client.uploadPart(
        r -> r.bucket(BUCKET).key(objectKey).uploadId(id).partNumber(1),
        RequestBody.fromBytes(bytes("crashed")));
  }

  @Test
  void aFileLargerThanAPartIsUploadedPartByPartAndAppearsOnlyWhenComplete() throws Exception {
    S3LakeStorage storage = storage();
    byte[] content = random(2 * PART + 1234);
    PendingObject pending = storage.create("t/p=0/big.parquet");
    pending.stream().write(content, 0, PART + 10);
    // The first part went out while writing: an upload is in progress, no object is visible.
    assertThat(backendUnfinished()).containsExactly("t/p=0/big.parquet");
    assertThat(backendObjects()).isEmpty();
    assertThat(storage.list("t/")).isEmpty();

    pending.stream().write(content, PART + 10, content.length - PART - 10);
    pending.complete();
    assertThat(backendUnfinished()).isEmpty();
    assertThat(backendObjects()).containsExactly("t/p=0/big.parquet");
    assertThat(sha256(storage.read("t/p=0/big.parquet"))).isEqualTo(sha256(content));
    String etag =
        client
            .headObject(r -> r.bucket(BUCKET).key(location.objectKey("t/p=0/big.parquet")))
            .eTag();
    assertThat(etag).as("a three-part upload's ETag").endsWith("-3\"");
  }

  @Test
  void aFileSmallerThanAPartIsOnePut() throws Exception {
    S3LakeStorage storage = storage();
    byte[] content = random(PART);
    try (PendingObject pending = storage.create("t/one.parquet")) {
      pending.stream().write(content);
      assertThat(backendUnfinished()).isEmpty();
      pending.complete();
    }
    String etag =
        client.headObject(r -> r.bucket(BUCKET).key(location.objectKey("t/one.parquet"))).eTag();
    assertThat(etag).doesNotContain("-");
  }

  @Test
  void anAbortedMultipartUploadLeavesNoIncompleteUploadBehind() throws Exception {
    S3LakeStorage storage = storage();
    PendingObject aborted = storage.create("t/aborted.parquet");
    aborted.stream().write(random(PART + 1));
    aborted.stream().write(random(PART + 1));
    assertThat(backendUnfinished()).containsExactly("t/aborted.parquet");
    aborted.abort();
    try (PendingObject closed = storage.create("t/closed.parquet")) {
      closed.stream().write(random(PART + 1));
      closed.stream().write(1);
    }
    assertThat(backendUnfinished()).isEmpty();
    assertThat(backendObjects()).isEmpty();
    assertThatThrownBy(() -> aborted.stream().write(1)).isInstanceOf(IOException.class);
  }

  @Test
  void prefixesKeepLakesApart() throws IOException {
    S3LakeStorage lake = storage();
    S3LakeStorage neighbour =
        new S3LakeStorage(
            client,
            new S3Location(BUCKET, location.prefix() + "x"),
            PART,
            new AwsRetries(S3Config.retryPolicy(1, 0)),
            false);
    lake.createIfAbsent("t/a", bytes("a"));
    neighbour.createIfAbsent("t/b", bytes("b"));
    leaveUnfinished(neighbour, "t/c");
    assertThat(lake.list("")).containsExactly("t/a");
    assertThat(lake.listIncomplete("")).isEmpty();
    assertThat(neighbour.list("")).containsExactly("t/b");
    assertThat(server.objectKeys(BUCKET, location.prefix() + "/"))
        .containsExactly(location.prefix() + "/t/a");
    assertThat(lake.location()).isEqualTo("s3://" + BUCKET + "/" + location.prefix() + "/");
  }

  @Test
  void connectorPropertiesOpenAnS3LakeEitherWay() throws IOException {
    Map<String, String> props = new HashMap<>();
    props.put(S3Config.ENDPOINT, server.endpoint().toString());
    props.put(S3Config.PATH_STYLE_ACCESS, "true");
    props.put(S3Config.ACCESS_KEY_ID, S3MockServer.ACCESS_KEY);
    props.put(S3Config.SECRET_ACCESS_KEY, S3MockServer.SECRET_KEY);
    props.put(StorageConfig.TOPICS_DIR, "s3://" + BUCKET + "/" + location.prefix());
    try (LakeStorage byUri = open(props)) {
      assertThat(byUri).isInstanceOf(S3LakeStorage.class);
      assertThat(byUri.createIfAbsent("by/uri", bytes("1"))).isTrue();
    }
    props.put(S3Config.BUCKET_NAME, BUCKET);
    props.put(StorageConfig.TOPICS_DIR, location.prefix());
    try (LakeStorage byBucket = open(props)) {
      assertThat(byBucket.createIfAbsent("by/bucket", bytes("2"))).isTrue();
      assertThat(byBucket.list("")).containsExactly("by/bucket", "by/uri");
    }
    assertThat(backendObjects()).containsExactly("by/bucket", "by/uri");
  }

  private static LakeStorage open(Map<String, String> props) {
    return StorageConfig.from(new AbstractConfig(StorageConfig.define(new ConfigDef()), props))
        .open();
  }

  @Test
  void transientFailuresOfEveryKindAreRetriedUntilTheObjectLands() throws Exception {
    try (HttpFaultProxy proxy =
            HttpFaultProxy.start(server.endpoint(), 0.3, 11, Duration.ofMillis(1500));
        S3Client flaky =
            AwsClients.s3(
                S3Config.forEndpoint(proxy.endpoint(), "k", "s").aws(), Duration.ofMillis(700))) {
      S3LakeStorage storage =
          new S3LakeStorage(
              flaky, location, PART, new AwsRetries(S3Config.retryPolicy(12, 5)), false);
      byte[] big = random(2 * PART + 77);
      for (int i = 0; i < 3; i++) {
        try (PendingObject pending = storage.create("t/f" + i + ".parquet")) {
          pending.stream().write(big);
          pending.complete();
        }
      }
      for (int i = 0; i < 12; i++) {
        assertThat(storage.createIfAbsent("log/" + i + ".json", bytes("entry " + i))).isTrue();
        assertThat(storage.createIfAbsent("log/" + i + ".json", bytes("other"))).isFalse();
      }
      assertThat(storage.list("t/")).hasSize(3);
      for (HttpFaultProxy.Fault fault : HttpFaultProxy.Fault.values()) {
        assertThat(proxy.injected(fault)).as(fault.name()).isPositive();
      }
    }
    assertThat(backendUnfinished()).isEmpty();
    S3LakeStorage clean = storage();
    for (int i = 0; i < 3; i++) {
      assertThat(clean.read("t/f" + i + ".parquet")).hasSize(2 * PART + 77);
    }
    for (int i = 0; i < 12; i++) {
      assertThat(text(clean.read("log/" + i + ".json"))).isEqualTo("entry " + i);
    }
  }

  @Test
  void aCompleteWhoseAnswerWasLostIsRecognisedAsDone() throws Exception {
    byte[] content = random(PART + 5);
    try (HttpFaultProxy proxy = HttpFaultProxy.start(server.endpoint(), 1.0, 5, Duration.ZERO);
        S3Client flaky =
            AwsClients.s3(
                S3Config.forEndpoint(proxy.endpoint(), "k", "s").aws(),
                AwsClients.SOCKET_TIMEOUT)) {
      proxy
          .faults(HttpFaultProxy.Fault.ERROR_AFTER)
          .only(request -> request.startsWith("POST ") && request.contains("uploadId="))
          .limit(1);
      S3LakeStorage storage =
          new S3LakeStorage(
              flaky, location, PART, new AwsRetries(S3Config.retryPolicy(3, 1)), false);
      try (PendingObject pending = storage.create("t/x.parquet")) {
        pending.stream().write(content);
        pending.complete();
      }
      assertThat(proxy.injected()).isEqualTo(1);
    }
    assertThat(sha256(storage().read("t/x.parquet"))).isEqualTo(sha256(content));
    assertThat(backendUnfinished()).isEmpty();
  }

  @Test
  void aStartWhoseAnswerWasLostLeavesNoStrayUpload() throws Exception {
    byte[] content = random(PART + 5);
    try (HttpFaultProxy proxy = HttpFaultProxy.start(server.endpoint(), 1.0, 5, Duration.ZERO);
        S3Client flaky =
            AwsClients.s3(
                S3Config.forEndpoint(proxy.endpoint(), "k", "s").aws(),
                AwsClients.SOCKET_TIMEOUT)) {
      proxy
          .faults(HttpFaultProxy.Fault.ERROR_AFTER)
          .only(request -> request.startsWith("POST ") && request.endsWith("?uploads"))
          .limit(1);
      S3LakeStorage storage =
          new S3LakeStorage(
              flaky, location, PART, new AwsRetries(S3Config.retryPolicy(3, 1)), false);
      try (PendingObject pending = storage.create("t/x.parquet")) {
        pending.stream().write(content);
        assertThat(backendUnfinished()).containsExactly("t/x.parquet");
        pending.complete();
      }
      assertThat(proxy.injected()).isEqualTo(1);
    }
    assertThat(sha256(storage().read("t/x.parquet"))).isEqualTo(sha256(content));
    assertThat(backendUnfinished()).isEmpty();
  }

  @Test
  void aConditionalPutWhoseAnswerWasLostIsRecognisedAsOurs() throws Exception {
    try (HttpFaultProxy proxy = HttpFaultProxy.start(server.endpoint(), 1.0, 5, Duration.ZERO);
        S3Client flaky =
            AwsClients.s3(
                S3Config.forEndpoint(proxy.endpoint(), "k", "s").aws(),
                AwsClients.SOCKET_TIMEOUT)) {
      proxy
          .faults(HttpFaultProxy.Fault.ERROR_AFTER)
          .only(request -> request.startsWith("PUT ") && request.contains("/log/"))
          .limit(2);
      S3LakeStorage storage =
          new S3LakeStorage(
              flaky, location, PART, new AwsRetries(S3Config.retryPolicy(3, 1)), false);
      assertThat(storage.createIfAbsent("log/0.json", bytes("mine"))).isTrue();
      assertThat(storage.createIfAbsent("log/0.json", bytes("theirs"))).isFalse();
      assertThat(proxy.injected()).isEqualTo(2);
    }
    assertThat(text(storage().read("log/0.json"))).isEqualTo("mine");
  }

  @Test
  void aRequestThatKeepsFailingFailsTheWriteAndLeavesNothing() throws Exception {
    try (HttpFaultProxy proxy = HttpFaultProxy.start(server.endpoint(), 1.0, 3, Duration.ZERO);
        S3Client failing =
            AwsClients.s3(
                S3Config.forEndpoint(proxy.endpoint(), "k", "s").aws(),
                AwsClients.SOCKET_TIMEOUT)) {
      proxy.faults(HttpFaultProxy.Fault.UNAVAILABLE_BEFORE);
      S3LakeStorage storage =
          new S3LakeStorage(
              failing, location, PART, new AwsRetries(S3Config.retryPolicy(3, 1)), false);
      PendingObject pending = storage.create("t/x.parquet");
      pending.stream().write(bytes("data"));
      assertThatThrownBy(pending::complete)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("after 3 attempt(s)")
          .hasMessageContaining("503 SlowDown");
      assertThatThrownBy(() -> storage.createIfAbsent("log/0.json", bytes("e")))
          .isInstanceOf(IOException.class);
      assertThat(proxy.requests()).isEqualTo(6);
    }
    assertThat(backendObjects()).isEmpty();
    assertThat(backendUnfinished()).isEmpty();
  }

  private static byte[] random(int size) {
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    return b;
  }

  private static byte[] sha256(byte[] b) throws Exception {
    return MessageDigest.getInstance("SHA-256").digest(b);
  }

  @Test
  void anObjectAboveTheSingleCopyLimitIsMovedInParts() throws Exception {
    S3LakeStorage storage = storage().singleCopyLimit(PART);
    byte[] content = new byte[2 * PART + 4321];
    new Random(11).nextBytes(content);
    try (PendingObject pending = storage.create("t/big.parquet")) {
      pending.stream().write(content);
      pending.complete();
    }
    storage.move("t/big.parquet", "_skippr/retired/t/big.parquet.retired");
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    assertThat(sha.digest(storage.read("_skippr/retired/t/big.parquet.retired")))
        .isEqualTo(sha.digest(content));
    assertThat(backendObjects()).containsExactly("_skippr/retired/t/big.parquet.retired");
    assertThat(backendUnfinished()).isEmpty();
  }
}
