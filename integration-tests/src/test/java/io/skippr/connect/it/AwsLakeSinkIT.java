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
import java.util.Base64;
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
 * s3.sse.algorithm=aws:kms} every record lands exactly once across several credential refreshes,
 * and the task's own compaction runs on the same keys; without it the task fails with an error that
 * names {@code s3.sse.algorithm}. A customer-keyed (SSE-C) lake is written, audited, recovered by a
 * restarted task, compacted and read with its key only. No secret (the base keys' secret, the
 * temporary secrets and session tokens, the SSE-C key) is logged or shown in a task's trace.
 */
@ExtendWith(S3MockServer.Shared.class)
class AwsLakeSinkIT {
  private static final String BUCKET = "aws-lake";
  private static final String ROLE = "arn:aws:iam::123456789012:role/lake-writer";
  private static final String BASE_KEY = "AKIABASEKEY0000007";
  private static final String BASE_SECRET = "base-secret-3f9a1c-never-logged";
  private static final String CUSTOMER_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
  private static final int ROUND = 120;

  /**
   * What must never be logged or shown: the base secret, what STS hands out beside a key id (its
   * secrets and session tokens, {@code secret-ASIATEST…} and {@code token-ASIATEST…} here), and the
   * SSE-C key, in base64 and raw.
   */
  private static final List<String> SECRETS =
      List.of(
          BASE_SECRET,
          "secret-" + StsTestServer.KEY_PREFIX,
          "token-" + StsTestServer.KEY_PREFIX,
          CUSTOMER_KEY,
          new String(Base64.getDecoder().decode(CUSTOMER_KEY), StandardCharsets.US_ASCII));

  private static final Duration CLI = Duration.ofMinutes(3);

  @TempDir static Path dir;
  private static ConnectCluster cluster;
  private static S3MockServer s3;
  private static StsTestServer sts;
  private static HttpFaultProxy proxy;
  private static String connectUrl;
  private static int runs;
  private static LogWatch logs;

  @BeforeAll
  static void start(S3MockServer server) {
    s3 = server;
    s3.createBucket(BUCKET);
    // Keys live 63 s: inside the SDK's 5-minute prefetch window from the start, so they are
    // replaced at nearly every request, and never used past the minute before they expire.
    sts = StsTestServer.start(Duration.ofSeconds(63));
    proxy = HttpFaultProxy.start(s3.endpoint(), 0, 1, Duration.ZERO);
    proxy.gate(S3Policies.all(S3Policies.signedBy(sts), S3Policies.requireEncryption()));
    // The embedded cluster's REST client (test-side classes) logs Connect's answers, which hold
    // the connector's config as submitted (docs/aws.md): not the worker's log.
    logs = LogWatch.start("org.apache.kafka.connect.util.clusters.");
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
    if (logs != null) {
      logs.close();
    }
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
    for (int round = 0;
        round == 0 || usedKeys().size() < 3 || retirements(proxy.seen()).isEmpty();
        round++) {
      // Keys are replaced within seconds (see above): a round or two sees three of them. The
      // task's compaction (every second, from two files) merges a partition's units of a round.
      assertThat(round)
          .as("rounds until three credentials signed requests and the task compacted")
          .isLessThan(500);
      sent = produce(topic, sent, ROUND);
      long expected = sent;
      Await.until(
          Duration.ofMinutes(3),
          () -> "offsets " + expected + "; status " + cluster.statusOrError("aws-orders-lake"),
          () -> committedOffsets("aws-orders-lake") == expected);
    }

    assertTheTaskCompacted();
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
    assertNoSecretsLogged();
    System.out.printf(
        "AWS lake: %d records, %d S3 requests, %d writes, %d credentials issued,"
            + " %d retirements of merged files, %d log events watched%n",
        sent, seen.size(), writes.size(), issued.size(), retirements(seen).size(), logs.events());
  }

  @Test
  void withoutEncryptionTheBucketPolicyRefusalFailsTheTaskNamingTheKey() throws IOException {
    String topic = "aws-plain";
    cluster.createTopic(topic, 1);
    cluster.connect().configureConnector("aws-plain-lake", sink(topic, "lake/plain"));
    produce(topic, 0, 10);
    Await.until(
        Duration.ofMinutes(2),
        () -> "a failed task; status " + cluster.statusOrError("aws-plain-lake"),
        () -> cluster.statusOrError("aws-plain-lake").contains("task0=FAILED"));
    String status = cluster.statusOrError("aws-plain-lake");
    assertThat(status).contains("HTTP 403").contains("s3.sse.algorithm");
    assertThat(SECRETS).as("the failed task's trace").noneMatch(status::contains);
    assertThat(s3.objectKeys(BUCKET, "lake/plain/")).isEmpty();
    assertNoSecretsLogged();
  }

  @Test
  void customerKeyedLakeIsWrittenCompactedAndReadOnlyWithTheKey() throws Exception {
    String key = CUSTOMER_KEY;
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
        awaitCommitted("aws-ssec-lake", sent);
      }
      AuditCli.assertClean(
          dir.resolve("logs"), "aws-ssec-lake", connectUrl, cluster.bootstrapServers(), 1);

      // A new task recovers its partition from the log, whose entries are customer-keyed too.
      int beforeRestart = keyed.seen().size();
      cluster.connect().restartConnectorAndTasks("aws-ssec-lake", false, true, false);
      cluster.awaitRunning("aws-ssec-lake", 1, Duration.ofMinutes(1));
      sent = produce(topic, sent, ROUND);
      awaitCommitted("aws-ssec-lake", sent);
      List<Seen> afterRestart = keyed.seen();
      List<Seen> sinceRestart = afterRestart.subList(beforeRestart, afterRestart.size());
      assertThat(sinceRestart)
          .as("object reads of the restarted task")
          .anyMatch(r -> r.method().equals("GET") && !r.target().contains("?"));
      assertThat(cluster.statusOrError("aws-ssec-lake")).isEqualTo("RUNNING task0=RUNNING");

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
    assertNoSecretsLogged();
  }

  private static void awaitCommitted(String connector, long expected) {
    Await.until(
        Duration.ofMinutes(3),
        () -> "offsets " + expected + "; status " + cluster.statusOrError(connector),
        () -> committedOffsets(connector) == expected);
  }

  /**
   * Neither the worker's log (everything logged in this JVM, from INFO up, the plugin's own loggers
   * from DEBUG up) nor the logs and output of the CLI's runs hold a secret.
   */
  private static void assertNoSecretsLogged() throws IOException {
    assertThat(logs.events()).as("log events watched").isPositive();
    assertThat(logs.containing(SECRETS)).as("log events holding a secret").isEmpty();
    assertThat(secretsIn(dir.resolve("logs"))).as("CLI logs holding a secret").isEmpty();
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

  /**
   * Compaction ran in the task, before {@code skippr compact} runs: its merged files and the moves
   * of its inputs aside are requests like any other, signed with the role's keys and encrypted
   * (checked with every request and write).
   */
  private static void assertTheTaskCompacted() {
    List<Seen> seen = proxy.seen();
    assertThat(retirements(seen))
        .as("inputs of the task's merges moved to _skippr/retired/")
        .isNotEmpty()
        .allSatisfy(r -> assertThat(sts.issued(r.accessKeyId())).isPresent());
    assertThat(seen)
        .as("merged files written staged")
        .anyMatch(r -> S3Policies.createsObject(r) && r.target().contains("/_skippr/staged/"));
  }

  /**
   * The copies that move a merge's inputs out of their table to {@code _skippr/retired/} (only a
   * compaction retires files here: the sinks append).
   */
  private static List<Seen> retirements(List<Seen> seen) {
    return seen.stream()
        .filter(
            r ->
                r.method().equals("PUT")
                    && r.header("x-amz-copy-source") != null
                    && r.target().contains("/_skippr/retired/"))
        .toList();
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

  /** Files under {@code logs} that hold one of {@link #SECRETS}. */
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
                  return SECRETS.stream().anyMatch(text::contains);
                } catch (IOException e) {
                  return false;
                }
              })
          .toList();
    }
  }
}
