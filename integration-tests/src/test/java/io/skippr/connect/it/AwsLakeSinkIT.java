package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake sink, its compaction, and {@code skippr audit}, {@code sql} and {@code compact} on a
 * bucket as production AWS accounts set them up: credentials only from an assumed role (an STS on
 * 127.0.0.1 issues short-lived keys; a proxy in front of S3Mock refuses any request not signed with
 * a live one), and a bucket policy that denies object writes without SSE-KMS. With {@code
 * s3.sse.algorithm=aws:kms} every record lands exactly once across several credential refreshes;
 * without it the task fails with an error that names {@code s3.sse.algorithm}.
 */
@ExtendWith(S3MockServer.Shared.class)
class AwsLakeSinkIT {
  private static final String BUCKET = "aws-lake";
  private static final String ROLE = "arn:aws:iam::123456789012:role/lake-writer";
  private static final String BASE_KEY = "AKIABASEKEY0000007";
  private static final String BASE_SECRET = "base-secret-3f9a1c-never-logged";
  private static final int ROUND = 120;
  private static final Duration CLI = Duration.ofMinutes(3);

  @TempDir static Path dir;
  private static ConnectCluster cluster;
  private static S3MockServer s3;
  private static StsTestServer sts;
  private static HttpFaultProxy proxy;
  private static String connectUrl;
  private static int runs;

  @BeforeAll
  static void start(S3MockServer server) {
    s3 = server;
    s3.createBucket(BUCKET);
    // Keys live 63 s: inside the SDK's 5-minute prefetch window from the start, so they are
    // replaced at nearly every request, and never used past the minute before they expire.
    sts = StsTestServer.start(Duration.ofSeconds(63));
    proxy = HttpFaultProxy.start(s3.endpoint(), 0, 1, Duration.ZERO);
    proxy.gate(S3Policies.all(S3Policies.signedBy(sts), S3Policies.requireEncryption()));
    cluster = ConnectCluster.start("aws-lake-sink");
    connectUrl = cluster.connect().endpointForResource("").replaceAll("/+$", "");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    proxy.close();
    sts.close();
  }

  @Test
  void assumedRoleAndKmsCarryTheSinkCompactionAuditSqlAndCompact() throws Exception {
    String topic = "aws-orders";
    cluster.createTopic(topic, 2);
    Map<String, String> config = sink(topic, "lake/orders");
    config.put("s3.sse.algorithm", "aws:kms");
    config.put("s3.sse.kms.key.id", S3MockServer.KMS_KEY_ID);
    config.put("s3.acl.canned", "bucket-owner-full-control");
    config.put("include.headers", "true");
    cluster.connect().configureConnector("aws-orders-lake", config);
    cluster.awaitRunning("aws-orders-lake", 1, Duration.ofMinutes(1));

    long sent = 0;
    for (int round = 0; round == 0 || usedKeys().size() < 3; round++) {
      // Keys are replaced within seconds (see above): a round or two sees three of them.
      assertThat(round).as("rounds until three credentials signed requests").isLessThan(500);
      sent = produce(topic, sent, ROUND);
      long expected = sent;
      Await.until(
          Duration.ofMinutes(3),
          () -> "offsets " + expected + "; status " + cluster.statusOrError("aws-orders-lake"),
          () -> committedOffsets("aws-orders-lake") == expected);
    }

    AuditCli.assertClean(
        dir.resolve("logs"), "aws-orders-lake", connectUrl, cluster.bootstrapServers(), 2);
    String count = "select count(*) as n, count(distinct id) as ids from \"" + topic + "\"";
    assertThat(cli("sql", "--connector", "aws-orders-lake", "--output", "csv", count))
        .isEqualTo("n,ids\n" + sent + "," + sent + "\n");
    cluster.connect().stopConnector("aws-orders-lake");
    Await.until(
        Duration.ofSeconds(60),
        () -> "stopped: " + cluster.statusOrError("aws-orders-lake"),
        () -> cluster.statusOrError("aws-orders-lake").contains("STOPPED"));
    cli("compact", "--connector", "aws-orders-lake", "--output", "json");
    assertThat(cli("sql", "--connector", "aws-orders-lake", "--output", "csv", count))
        .isEqualTo("n,ids\n" + sent + "," + sent + "\n");
    String headers =
        "select count(*) as n from \""
            + topic
            + "\" where len(__headers) = 4"
            + " and __headers[1].key = 'trace' and __headers[1].value = concat('t-', id)"
            + " and __headers[2].key = 'retry' and __headers[2].value = '1'"
            + " and __headers[3].key = 'retry' and __headers[3].value = '2'"
            + " and __headers[4].key = 'empty' and __headers[4].value is null";
    assertThat(cli("sql", "--connector", "aws-orders-lake", "--output", "csv", headers))
        .as("headers in order, duplicates kept, read by DuckDB")
        .isEqualTo("n\n" + sent + "\n");

    List<Seen> seen = proxy.seen();
    Set<String> issued =
        sts.issued().stream().map(StsTestServer.Issued::accessKeyId).collect(Collectors.toSet());
    assertThat(seen).allSatisfy(r -> assertThat(issued).contains(r.accessKeyId()));
    assertThat(sts.issued())
        .allSatisfy(
            i -> {
              assertThat(i.callerKeyId()).isEqualTo(BASE_KEY);
              assertThat(i.roleArn()).isEqualTo(ROLE);
            });
    List<Seen> writes = seen.stream().filter(S3Policies::createsObject).toList();
    assertThat(writes)
        .isNotEmpty()
        .allSatisfy(
            w -> {
              assertThat(w.header("x-amz-server-side-encryption")).isEqualTo("aws:kms");
              assertThat(w.header("x-amz-server-side-encryption-aws-kms-key-id"))
                  .isEqualTo(S3MockServer.KMS_KEY_ID);
              assertThat(w.header("x-amz-acl")).isEqualTo("bucket-owner-full-control");
            });
    assertThat(secretsIn(dir.resolve("logs"))).isEmpty();
    System.out.printf(
        "AWS lake: %d records, %d S3 requests, %d writes, %d credentials issued%n",
        sent, seen.size(), writes.size(), issued.size());
  }

  @Test
  void withoutEncryptionTheBucketPolicyRefusalFailsTheTaskNamingTheKey() {
    String topic = "aws-plain";
    cluster.createTopic(topic, 1);
    cluster.connect().configureConnector("aws-plain-lake", sink(topic, "lake/plain"));
    produce(topic, 0, 10);
    Await.until(
        Duration.ofMinutes(2),
        () -> "a failed task; status " + cluster.statusOrError("aws-plain-lake"),
        () -> cluster.statusOrError("aws-plain-lake").contains("task0=FAILED"));
    assertThat(cluster.statusOrError("aws-plain-lake"))
        .contains("HTTP 403")
        .contains("s3.sse.algorithm");
    assertThat(s3.objectKeys(BUCKET, "lake/plain/")).isEmpty();
  }

  @Test
  void customerKeyedLakeIsWrittenCompactedAndReadOnlyWithTheKey() throws Exception {
    String key = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    try (HttpFaultProxy keyed = HttpFaultProxy.start(s3.endpoint(), 0, 1, Duration.ZERO)) {
      keyed.gate(S3Policies.all(S3Policies.signedBy(sts), S3Policies.customerKeys()));
      String topic = "aws-ssec";
      cluster.createTopic(topic, 1);
      Map<String, String> config = sink(topic, "lake/ssec");
      config.put("s3.endpoint", keyed.endpoint().toString());
      config.put("s3.sse.customer.key", key);
      cluster.connect().configureConnector("aws-ssec-lake", config);
      cluster.awaitRunning("aws-ssec-lake", 1, Duration.ofMinutes(1));
      long sent = 0;
      for (int round = 0; round < 3; round++) {
        sent = produce(topic, sent, ROUND);
        long expected = sent;
        Await.until(
            Duration.ofMinutes(3),
            () -> "offsets " + expected + "; status " + cluster.statusOrError("aws-ssec-lake"),
            () -> committedOffsets("aws-ssec-lake") == expected);
      }
      cluster.connect().stopConnector("aws-ssec-lake");
      Await.until(
          Duration.ofSeconds(60),
          () -> "stopped: " + cluster.statusOrError("aws-ssec-lake"),
          () -> cluster.statusOrError("aws-ssec-lake").contains("STOPPED"));
      cli("compact", "--connector", "aws-ssec-lake", "--output", "json");
      String count = "select count(*) as n, count(distinct id) as ids from \"" + topic + "\"";
      assertThat(cli("sql", "--connector", "aws-ssec-lake", "--output", "csv", count))
          .isEqualTo("n,ids\n" + sent + "," + sent + "\n");

      List<Seen> seen = keyed.seen();
      assertThat(seen.stream().filter(S3Policies::createsObject))
          .isNotEmpty()
          .allSatisfy(
              w ->
                  assertThat(w.header("x-amz-server-side-encryption-customer-key-md5"))
                      .isEqualTo("hRasmdxgYDKV3nvbahU1MA=="));
      assertThat(seen.stream().filter(r -> r.method().equals("GET") && !r.target().contains("?")))
          .as("object reads")
          .isNotEmpty()
          .allSatisfy(
              r -> assertThat(r.header("x-amz-server-side-encryption-customer-key")).isNotNull());
      CliProcess keyless =
          CliProcess.start(
              "sql-keyless",
              dir.resolve("logs"),
              List.of(
                  "sql",
                  "--connector",
                  "aws-ssec-lake",
                  "--connect-url",
                  connectUrl,
                  "--setting",
                  "s3.sse.customer.key=",
                  count),
              Path.of("").toAbsolutePath(),
              Map.of());
      assertThat(keyless.awaitExit(CLI)).as(keyless.output()).isNotZero();
      assertThat(keyless.output()).contains("HTTP 400").doesNotContain(key);
    }
  }

  private static Map<String, String> sink(String topic, String prefix) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("s3.bucket.name", BUCKET);
    config.put("topics.dir", prefix);
    config.put("s3.endpoint", proxy.endpoint().toString());
    config.put("s3.path.style.access", "true");
    config.put("s3.region", "us-east-1");
    config.put("s3.retry.max.attempts", "2");
    config.put("aws.access.key.id", BASE_KEY);
    config.put("aws.secret.access.key", BASE_SECRET);
    config.put(
        "s3.credentials.provider.class",
        "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider");
    config.put("sts.role.arn", ROLE);
    config.put("sts.role.session.name", "lake-it");
    config.put("sts.endpoint", sts.endpoint().toString());
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("include.kafka.metadata", "true");
    config.put("flush.size", "40");
    config.put("rotate.schedule.interval.ms", "500");
    config.put("compaction.interval.ms", "1000");
    config.put("compaction.min.files", "2");
    config.put("errors.tolerance", "none");
    config.put("store.rocksdb.path", dir.resolve("state-" + topic).toString());
    return config;
  }

  private static long produce(String topic, long from, int count) {
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (long id = from; id < from + count; id++) {
        String json = "{\"id\":" + id + ",\"amount\":" + (id % 97) + "}";
        ProducerRecord<byte[], byte[]> record =
            new ProducerRecord<>(
                topic,
                null,
                ("k" + id).getBytes(StandardCharsets.UTF_8),
                json.getBytes(StandardCharsets.UTF_8));
        record.headers().add("trace", ("t-" + id).getBytes(StandardCharsets.UTF_8));
        record.headers().add("retry", "1".getBytes(StandardCharsets.UTF_8));
        record.headers().add("retry", "2".getBytes(StandardCharsets.UTF_8));
        record.headers().add("empty", null);
        producer.send(record);
      }
      producer.flush();
    }
    return from + count;
  }

  /** The distinct temporary keys S3 requests were signed with so far. */
  private static Set<String> usedKeys() {
    return proxy.seen().stream().map(Seen::accessKeyId).collect(Collectors.toSet());
  }

  private static long committedOffsets(String connector) {
    long sum = 0;
    for (ConnectorOffset offset : cluster.connect().connectorOffsets(connector).offsets()) {
      sum += ((Number) offset.offset().get("kafka_offset")).longValue();
    }
    return sum;
  }

  private static String cli(String command, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(args));
    all.addAll(List.of("--connect-url", connectUrl));
    CliProcess process =
        CliProcess.start(
            command + "-" + ++runs,
            dir.resolve("logs"),
            all,
            Path.of("").toAbsolutePath(),
            Map.of());
    assertThat(process.awaitExit(CLI)).as(process.output()).isZero();
    return process.stdout();
  }

  /** Files under {@code logs} that hold the base secret or a session token. */
  private static List<Path> secretsIn(Path logs) throws IOException {
    if (!Files.isDirectory(logs)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(logs)) {
      return files
          .filter(Files::isRegularFile)
          .filter(
              f -> {
                try {
                  String text = Files.readString(f);
                  return text.contains(BASE_SECRET) || text.contains("token-ASIA");
                } catch (IOException e) {
                  return false;
                }
              })
          .toList();
    }
  }
}
