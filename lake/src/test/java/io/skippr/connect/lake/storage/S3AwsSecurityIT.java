package io.skippr.connect.lake.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.aws.AwsCredentialsConfig;
import io.skippr.connect.aws.S3WriteOptionsConfig;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.HttpFaultProxy;
import io.skippr.connect.testkit.HttpFaultProxy.Seen;
import io.skippr.connect.testkit.S3MockServer;
import io.skippr.connect.testkit.S3Policies;
import io.skippr.connect.testkit.StsTestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake's S3 storage against what AWS enforces and S3Mock does not (a proxy with {@link
 * S3Policies} in front of it): assumed-role credentials from an STS on 127.0.0.1 (on static keys
 * and on web identity, as IRSA gives), refreshed before they expire; a bucket policy that denies
 * unencrypted writes; SSE-C; canned ACLs. Every object request is exercised: single and multipart
 * writes, conditional creates, reads, heads, copies, lists and deletes.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3AwsSecurityIT {
  private static final String BUCKET = "lake-aws";
  private static final String ROLE = "arn:aws:iam::123456789012:role/lake-writer";
  private static final String BASE_KEY = "AKIABASEKEY0000001";
  private static final String BASE_SECRET = "base-secret-never-logged";
  private static final String CUSTOMER_KEY =
      Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

  /**
   * Credentials are fetched again from 5 minutes before expiry and no longer used 1 minute before
   * it: with 63 s to live they are due for a fetch as soon as they arrive (the provider fetches
   * anew at nearly every request) and stale 3 s after; the proxy refuses any used after it expired.
   */
  private static final Duration LIFETIME = Duration.ofSeconds(63);

  /** Short enough to wait out in a test: every key of a round has expired 3 s after the round. */
  private static final Duration SHORT_LIFETIME = Duration.ofSeconds(3);

  private final S3MockServer server;
  private StsTestServer sts;
  private HttpFaultProxy proxy;
  private S3Location location;

  S3AwsSecurityIT(S3MockServer server) {
    this.server = server;
  }

  @BeforeEach
  void start() {
    sts = StsTestServer.start(LIFETIME);
    proxy = HttpFaultProxy.start(server.endpoint(), 0, 1, Duration.ZERO);
    location = S3Lakes.fresh(server, BUCKET);
  }

  @AfterEach
  void stop() {
    proxy.close();
    sts.close();
  }

  @Test
  void everyRequestCarriesTheAssumedRolesKeysRefreshedBeforeExpiry() throws IOException {
    proxy.gate(S3Policies.signedBy(sts));
    Map<String, String> props = props();
    props.put(S3Config.ACCESS_KEY_ID, BASE_KEY);
    props.put(S3Config.SECRET_ACCESS_KEY, BASE_SECRET);
    props.put(
        AwsCredentialsConfig.S3.providerClassKey(), AwsCredentialsConfig.CONFLUENT_ASSUME_ROLE);
    props.put("sts.role.arn", ROLE);
    props.put("sts.role.session.name", "lake-test");
    props.put("sts.role.external.id", "ext-42");
    try (LakeStorage lake = open(props)) {
      exerciseEveryRequest(lake);
      Await.until(
          Duration.ofMinutes(2),
          () -> "credentials fetched again; issued " + sts.issued().size(),
          () -> {
            try {
              lake.exists("t/whole.bin");
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
            return sts.issued().size() >= 2;
          });
      exerciseEveryRequest(lake);
    }
    assertThat(sts.issued())
        .allSatisfy(
            issued -> {
              assertThat(issued.action()).isEqualTo("AssumeRole");
              assertThat(issued.callerKeyId()).isEqualTo(BASE_KEY);
              assertThat(issued.roleArn()).isEqualTo(ROLE);
              assertThat(issued.sessionName()).isEqualTo("lake-test");
              assertThat(issued.externalId()).isEqualTo("ext-42");
            });
    assertEverySignedByIssuedKeys(2);
  }

  /**
   * A lake kept open across the expiry of every key it was given goes on working: the requests
   * after it are signed by keys STS issued after the first ones expired, none by an expired key
   * (the proxy would refuse it, and with one attempt per request the storage call would fail).
   *
   * <p>Keys live 3 s, below the provider's stale window (1 minute), so the provider fetches anew at
   * every request rather than caching; what this shows is that nothing else on the way (the S3
   * client, the lake's storage) holds on to a key past its expiry. That cached keys are replaced
   * ahead of expiry is left to the SDK's window (5 minutes to 1 minute before), which {@link
   * #everyRequestCarriesTheAssumedRolesKeysRefreshedBeforeExpiry()} sees in its refreshes.
   */
  @Test
  void afterEveryIssuedKeyExpiredRequestsAreSignedByKeysIssuedSince() throws IOException {
    sts.close();
    sts = StsTestServer.start(SHORT_LIFETIME);
    proxy.gate(S3Policies.signedBy(sts));
    Map<String, String> props = props();
    props.put(S3Config.ACCESS_KEY_ID, BASE_KEY);
    props.put(S3Config.SECRET_ACCESS_KEY, BASE_SECRET);
    props.put("sts.role.arn", ROLE);
    try (LakeStorage lake = open(props)) {
      exerciseEveryRequest(lake);
      List<StsTestServer.Issued> firstRound = sts.issued();
      assertThat(firstRound).isNotEmpty();
      Instant allExpired =
          firstRound.stream().map(StsTestServer.Issued::expiration).max(Instant::compareTo).get();
      Await.until(
          Duration.ofSeconds(30),
          () -> "every key of the first round expired (at " + allExpired + ")",
          () -> Instant.now().isAfter(allExpired));
      int seenBefore = proxy.seen().size();

      exerciseEveryRequest(lake);

      List<Seen> all = proxy.seen();
      List<Seen> after = all.subList(seenBefore, all.size());
      assertThat(after)
          .isNotEmpty()
          .allSatisfy(
              r -> {
                StsTestServer.Issued key = sts.issued(r.accessKeyId()).orElseThrow();
                assertThat(key.issuedAt()).isAfter(firstRound.get(0).expiration());
                assertThat(key.issuedAt()).isAfter(allExpired);
              });
    }
    assertThat(sts.issued())
        .allSatisfy(
            issued -> {
              assertThat(issued.action()).isEqualTo("AssumeRole");
              assertThat(issued.callerKeyId()).isEqualTo(BASE_KEY);
            });
  }

  @Test
  void webIdentityAsIrsaGivesItIsChainedIntoTheRoleToAssume(@TempDir Path dir) throws IOException {
    proxy.gate(S3Policies.signedBy(sts));
    Path token = Files.writeString(dir.resolve("token"), "eyJ.irsa-token.sig");
    String webRole = "arn:aws:iam::123456789012:role/eks-pod";
    Map<String, String> saved = new HashMap<>();
    for (String key : List.of("aws.webIdentityTokenFile", "aws.roleArn", "aws.roleSessionName")) {
      saved.put(key, System.getProperty(key));
    }
    System.setProperty("aws.webIdentityTokenFile", token.toString());
    System.setProperty("aws.roleArn", webRole);
    System.setProperty("aws.roleSessionName", "pod");
    try {
      Map<String, String> props = props();
      props.put("sts.role.arn", ROLE);
      try (LakeStorage lake = open(props)) {
        exerciseEveryRequest(lake);
      }
    } finally {
      saved.forEach(
          (key, value) -> {
            if (value == null) {
              System.clearProperty(key);
            } else {
              System.setProperty(key, value);
            }
          });
    }
    List<StsTestServer.Issued> web =
        sts.issued().stream().filter(i -> i.action().equals("AssumeRoleWithWebIdentity")).toList();
    assertThat(sts.issued().get(0)).isEqualTo(web.get(0));
    assertThat(web)
        .allSatisfy(
            issued -> {
              assertThat(issued.roleArn()).isEqualTo(webRole);
              assertThat(issued.token()).isEqualTo("eyJ.irsa-token.sig");
            });
    Set<String> webKeys =
        web.stream().map(StsTestServer.Issued::accessKeyId).collect(Collectors.toSet());
    assertThat(sts.issued().stream().filter(i -> i.action().equals("AssumeRole")))
        .isNotEmpty()
        .allSatisfy(
            issued -> {
              assertThat(issued.roleArn()).isEqualTo(ROLE);
              assertThat(webKeys).contains(issued.callerKeyId());
            });
    Set<String> roleKeys =
        sts.issued().stream()
            .filter(i -> i.action().equals("AssumeRole"))
            .map(StsTestServer.Issued::accessKeyId)
            .collect(Collectors.toSet());
    assertThat(proxy.seen()).allSatisfy(r -> assertThat(roleKeys).contains(r.accessKeyId()));
  }

  @Test
  void withKmsEncryptionABucketPolicyDenyingPlainWritesAcceptsEveryWrite() throws IOException {
    proxy.gate(S3Policies.requireEncryption());
    Map<String, String> props = staticKeys();
    props.put(S3WriteOptionsConfig.SSE_ALGORITHM, "aws:kms");
    props.put(S3WriteOptionsConfig.SSE_KMS_KEY_ID, S3MockServer.KMS_KEY_ID);
    props.put(S3WriteOptionsConfig.ACL_CANNED, "bucket-owner-full-control");
    try (LakeStorage lake = open(props)) {
      exerciseEveryRequest(lake);
    }
    List<Seen> writes = proxy.seen().stream().filter(S3Policies::createsObject).toList();
    assertThat(writes)
        .hasSizeGreaterThanOrEqualTo(4)
        .allSatisfy(
            w -> {
              assertThat(w.header("x-amz-server-side-encryption")).isEqualTo("aws:kms");
              assertThat(w.header("x-amz-server-side-encryption-aws-kms-key-id"))
                  .isEqualTo(S3MockServer.KMS_KEY_ID);
              assertThat(w.header("x-amz-acl")).isEqualTo("bucket-owner-full-control");
            });
  }

  @Test
  void withoutEncryptionTheRefusalNamesTheKeyToSet() throws IOException {
    proxy.gate(S3Policies.requireEncryption());
    try (LakeStorage lake = open(staticKeys())) {
      assertThatThrownBy(() -> lake.createIfAbsent("t/log/1", bytes("entry")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("HTTP 403")
          .hasMessageContaining(S3WriteOptionsConfig.SSE_ALGORITHM);
      assertThat(lake.list("")).isEmpty();
    }
  }

  @Test
  void customerKeyedObjectsRoundTripAndCannotBeReadWithoutTheKey() throws IOException {
    proxy.gate(S3Policies.customerKeys());
    Map<String, String> props = staticKeys();
    props.put(S3WriteOptionsConfig.SSE_CUSTOMER_KEY, CUSTOMER_KEY);
    try (LakeStorage lake = open(props)) {
      exerciseEveryRequest(lake);
      lake.createIfAbsent("t/kept", bytes("secret rows"));
    }
    assertThat(proxy.seen().stream().filter(S3Policies::createsObject))
        .allSatisfy(
            w -> assertThat(w.header("x-amz-server-side-encryption-customer-key")).isNotNull());
    try (LakeStorage keyless = open(staticKeys())) {
      assertThatThrownBy(() -> keyless.read("t/kept"))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("HTTP 400");
    }
  }

  /** Conditional create, single PUT, multipart upload, read, head, copy, list, delete. */
  private void exerciseEveryRequest(LakeStorage lake) throws IOException {
    String suffix = String.valueOf(System.nanoTime());
    assertThat(lake.createIfAbsent("t/log/" + suffix, bytes("entry " + suffix))).isTrue();
    assertThat(lake.read("t/log/" + suffix)).isEqualTo(bytes("entry " + suffix));
    byte[] small = bytes("small " + suffix);
    try (PendingObject pending = lake.create("t/small.bin")) {
      pending.stream().write(small);
      pending.complete();
    }
    byte[] big = new byte[S3Config.MIN_PART_SIZE + 1000];
    Arrays.fill(big, (byte) 7);
    try (PendingObject pending = lake.create("t/whole.bin")) {
      pending.stream().write(big);
      pending.complete();
    }
    assertThat(lake.read("t/whole.bin")).isEqualTo(big);
    lake.move("t/small.bin", "t/moved-" + suffix + ".bin");
    assertThat(lake.read("t/moved-" + suffix + ".bin")).isEqualTo(small);
    assertThat(lake.exists("t/whole.bin")).isTrue();
    assertThat(lake.list("t/")).contains("t/whole.bin", "t/moved-" + suffix + ".bin");
    lake.delete("t/moved-" + suffix + ".bin");
  }

  private void assertEverySignedByIssuedKeys(int atLeastKeys) {
    List<Seen> seen = proxy.seen();
    assertThat(seen).isNotEmpty();
    Set<String> used = seen.stream().map(Seen::accessKeyId).collect(Collectors.toSet());
    Set<String> issued =
        sts.issued().stream().map(StsTestServer.Issued::accessKeyId).collect(Collectors.toSet());
    assertThat(issued).containsAll(used);
    assertThat(used).hasSizeGreaterThanOrEqualTo(atLeastKeys);
    assertThat(seen)
        .allSatisfy(r -> assertThat(r.header("x-amz-security-token")).startsWith("token-ASIA"));
  }

  private Map<String, String> props() {
    Map<String, String> props = new HashMap<>();
    props.put(S3Config.ENDPOINT, proxy.endpoint().toString());
    props.put(S3Config.PATH_STYLE_ACCESS, "true");
    props.put(S3Config.PART_SIZE, String.valueOf(S3Config.MIN_PART_SIZE));
    props.put(S3Config.RETRY_MAX_ATTEMPTS, "1");
    props.put("sts.endpoint", sts.endpoint().toString());
    props.put(StorageConfig.TOPICS_DIR, "s3://" + BUCKET + "/" + location.prefix());
    return props;
  }

  private Map<String, String> staticKeys() {
    Map<String, String> props = props();
    props.put(S3Config.ACCESS_KEY_ID, S3MockServer.ACCESS_KEY);
    props.put(S3Config.SECRET_ACCESS_KEY, S3MockServer.SECRET_KEY);
    return props;
  }

  private static LakeStorage open(Map<String, String> props) {
    return StorageConfig.from(new AbstractConfig(StorageConfig.define(new ConfigDef()), props))
        .open();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
