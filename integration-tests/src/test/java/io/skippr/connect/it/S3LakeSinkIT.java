package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.S3MockServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake sink writing to S3 (S3Mock, a separate S3 protocol server) holds every one of 201,000
 * orders exactly once: the bucket prefix is downloaded once the connector committed every offset,
 * and read back with DuckDB. One connector names the lake {@code s3://bucket/prefix}, cuts small
 * units and is restarted while it runs; the other uses {@code s3.bucket.name} with a relative
 * {@code topics.dir} and writes uncompressed whole-partition units, large enough to be uploaded in
 * parts.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3LakeSinkIT {
  private static final int PARTITIONS = 3;
  private static final long PER_PARTITION = 67_000;
  private static final long TOTAL = PARTITIONS * PER_PARTITION;
  private static final String ORDERS = "orders";
  private static final String BUCKET = "skippr-lake";
  private static final Duration DRAIN = Duration.ofMinutes(10);

  @TempDir static Path downloads;
  private static ConnectCluster cluster;
  private static S3MockServer s3;

  @BeforeAll
  static void produce(S3MockServer server) {
    s3 = server;
    s3.createBucket(BUCKET);
    cluster = ConnectCluster.start("s3-lake-sink");
    // Order timestamps lie in the past: keep them from the broker's retention.
    cluster.kafka().createTopic(ORDERS, PARTITIONS, 1, Map.of("retention.ms", "-1"));
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      Orders.send(producer, ORDERS, PARTITIONS, PER_PARTITION);
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void everyOrderLandsInTheBucketExactlyOnce() throws IOException {
    Map<String, String> small = new HashMap<>();
    small.put("topics.dir", "s3://" + BUCKET + "/lakes/small");
    small.put("flush.size", "6700");
    startSink("s3-small", small);
    Map<String, String> whole = new HashMap<>();
    whole.put("s3.bucket.name", BUCKET);
    whole.put("topics.dir", "lakes/whole");
    whole.put("flush.size", String.valueOf(PER_PARTITION));
    whole.put("flush.bytes", "0");
    whole.put("parquet.codec", "none");
    whole.put("s3.part.size", String.valueOf(5 << 20));
    startSink("s3-whole", whole);

    Await.until(
        DRAIN,
        () -> "s3-small to commit a third; has " + committedOffsets("s3-small"),
        () -> committedOffsets("s3-small") >= TOTAL / 3);
    cluster.connect().restartConnectorAndTasks("s3-small", false, true, false);

    Path smallLake = drainAndDownload("s3-small", "lakes/small/");
    assertLake(smallLake);
    for (LakeAudit.Unit unit : units(smallLake)) {
      assertThat(unit.end() - unit.start() + 1).as(unit.file()).isEqualTo(6700);
    }

    Path wholeLake = drainAndDownload("s3-whole", "lakes/whole/");
    assertLake(wholeLake);
    for (LakeAudit.Unit unit : units(wholeLake)) {
      assertThat(unit.end() - unit.start() + 1).as(unit.file()).isEqualTo(PER_PARTITION);
    }
    long multipart =
        s3.objectKeys(BUCKET, "lakes/whole/orders/").stream()
            .filter(key -> s3.etag(BUCKET, key).matches("\"?[0-9a-f]+-\\d+\"?"))
            .count();
    System.out.printf(
        "S3 lake: small units %d files, %,d bytes; whole units %d files, %,d bytes, %d multipart%n",
        files(smallLake).size(),
        bytes(smallLake),
        files(wholeLake).size(),
        bytes(wholeLake),
        multipart);
    assertThat(multipart).as("objects uploaded in parts").isPositive();
  }

  /** Waits until the connector committed every offset, then copies its lake out of the bucket. */
  private static Path drainAndDownload(String connector, String prefix) {
    Await.until(
        DRAIN,
        () ->
            connector
                + " to commit "
                + TOTAL
                + " offsets; has "
                + committedOffsets(connector)
                + "; status "
                + cluster.statusOrError(connector),
        () -> committedOffsets(connector) == TOTAL);
    assertThat(s3.multipartUploads(BUCKET, prefix)).as("unfinished uploads").isEmpty();
    Path lake = downloads.resolve(connector);
    s3.download(BUCKET, prefix, lake);
    return lake;
  }

  private static void assertLake(Path lake) throws IOException {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      LakeAudit.assertEveryOffsetOnce(duck, ORDERS, PARTITIONS, PER_PARTITION);
      LakeAudit.assertValues(duck, ORDERS, false);
      LakeAudit.assertUnitsTile(LakeAudit.units(duck, ORDERS), ORDERS, PARTITIONS, PER_PARTITION);
    }
    for (int p = 0; p < PARTITIONS; p++) {
      List<LakeLogAudit.Entry> entries = LakeLogAudit.entries(lake, ORDERS, p);
      LakeLogAudit.assertNoUnresolvedIntent(entries);
      LakeLogAudit.assertEpochsNeverGoBack(entries);
    }
  }

  private static List<LakeAudit.Unit> units(Path lake) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      return LakeAudit.units(duck, ORDERS);
    }
  }

  private static List<Path> files(Path lake) throws IOException {
    try (Stream<Path> files = Files.walk(lake.resolve(ORDERS))) {
      return files.filter(f -> f.toString().endsWith(".parquet")).toList();
    }
  }

  private static long bytes(Path lake) throws IOException {
    long sum = 0;
    for (Path file : files(lake)) {
      sum += Files.size(file);
    }
    return sum;
  }

  /** Sum over partitions of the offsets the connector committed to Kafka. */
  private static long committedOffsets(String connector) {
    long sum = 0;
    for (ConnectorOffset offset : cluster.connect().connectorOffsets(connector).offsets()) {
      sum += ((Number) offset.offset().get("kafka_offset")).longValue();
    }
    return sum;
  }

  private static void startSink(String name, Map<String, String> lake) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    // The test checks how units tile the offsets: merged files would hide them.
    config.put("compaction.enabled", "false");
    config.put("tasks.max", "2");
    config.put("topics", ORDERS);
    config.put("s3.endpoint", s3.endpoint().toString());
    config.put("s3.path.style.access", "true");
    config.put("aws.access.key.id", S3MockServer.ACCESS_KEY);
    config.put("aws.secret.access.key", S3MockServer.SECRET_KEY);
    config.put("include.kafka.metadata", "true");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put("errors.tolerance", "none");
    // The progress mirror lives with this test's files, not in the module's working directory.
    config.put("store.rocksdb.path", downloads.resolve("state").toString());
    config.putAll(lake);
    cluster.connect().configureConnector(name, config);
    cluster.awaitRunning(name, 2, Duration.ofMinutes(1));
  }
}
