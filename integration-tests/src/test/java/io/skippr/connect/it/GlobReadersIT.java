package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.S3MockServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers that glob a table ({@code <lake>/<table>/**}{@code /*.parquet}) while the lake sink
 * writes small units and merges them eagerly: a reader thread counts the glob every ~100 ms and
 * never counts a record twice, and once the stream has landed and merged it counts every record
 * exactly once. On local disk DuckDB globs the directory itself; on S3 (S3Mock) DuckDB's S3 support
 * cannot be loaded here, so each sample lists the keys the glob matches with ListObjectsV2, as
 * DuckDB does, then reads exactly those objects. Under merge_by_key with the default null handling,
 * tombstones delete their keys: the glob of the merged table holds one row per live key.
 */
@ExtendWith(S3MockServer.Shared.class)
class GlobReadersIT {
  private static final int PARTITIONS = 2;
  private static final long RECORDS = 24_000;
  private static final int BATCH = 300;
  private static final String BUCKET = "glob-readers";
  private static final Duration LANDING = Duration.ofMinutes(4);

  @TempDir static Path dir;
  private static ConnectCluster cluster;
  private static S3MockServer s3;

  @BeforeAll
  static void start(S3MockServer server) {
    s3 = server;
    s3.createBucket(BUCKET);
    cluster = ConnectCluster.start("glob-readers");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aGlobOfALocalLakeNeverCountsARecordTwiceWhileItsFilesAreMerged() throws Exception {
    String topic = "glob-local";
    Path lake = dir.resolve("local-lake");
    Path table = lake.resolve(topic);
    runAndSample(
        topic, Map.of("topics.dir", lake.toString()), () -> GlobSampler.duckDbGlob(table, "id"));
    assertThat(LakeLogAudit.count(lake, topic, PARTITIONS, "compact-commit"))
        .as("merges committed")
        .isGreaterThan(5);
    try (Stream<Path> retired = Files.walk(lake.resolve("_skippr"))) {
      assertThat(retired.filter(p -> p.toString().endsWith(".parquet.retired")).count())
          .as("merged inputs wait out their grace outside the table")
          .isPositive();
    }
  }

  @Test
  void aGlobOfAnS3LakeNeverCountsARecordTwiceWhileItsFilesAreMerged() throws Exception {
    String topic = "glob-s3";
    String prefix = "lake/" + topic + "/";
    Map<String, String> lake = new HashMap<>();
    lake.put("topics.dir", "s3://" + BUCKET + "/lake");
    lake.put("s3.endpoint", s3.endpoint().toString());
    lake.put("s3.path.style.access", "true");
    lake.put("aws.access.key.id", S3MockServer.ACCESS_KEY);
    lake.put("aws.secret.access.key", S3MockServer.SECRET_KEY);
    runAndSample(topic, lake, () -> s3Glob(prefix));
    assertThat(s3.objectKeys(BUCKET, "lake/_skippr/retired/"))
        .as("merged inputs wait out their grace outside the table")
        .isNotEmpty();
  }

  /**
   * Streams {@link #RECORDS} records into a fresh sink while a reader samples the glob; checks
   * every sample and that the glob ends exact.
   */
  private static void runAndSample(
      String topic,
      Map<String, String> lake,
      java.util.function.Supplier<GlobSampler.Reader> reader)
      throws Exception {
    cluster.createTopic(topic, PARTITIONS);
    Map<String, String> config = sink(topic);
    config.putAll(lake);
    cluster.connect().configureConnector(topic, config);
    cluster.awaitRunning(topic, PARTITIONS, Duration.ofSeconds(60));

    AtomicLong produced = new AtomicLong();
    GlobSampler sampler = new GlobSampler(topic, reader.get(), produced::get);
    try {
      produce(topic, produced);
      GlobSampler.Reader check = reader.get();
      Await.until(
          LANDING,
          () -> "the glob of " + topic + " to count every record once",
          () -> check.read().equals(new GlobSampler.Counts(RECORDS, RECORDS)));
      int taken = sampler.samples().size();
      Await.until(
          Duration.ofMinutes(1),
          "a sample after the stream landed",
          () -> sampler.samples().size() > taken + 3);
    } finally {
      sampler.close();
    }
    List<GlobSampler.Sample> samples = sampler.samples();
    long largest = samples.stream().mapToLong(s -> s.counts().rows()).max().orElse(0);
    System.out.printf(
        "%s: %d glob samples, %d failed on a file retired after the listing, largest %d rows,"
            + " last %s%n",
        topic,
        samples.size(),
        sampler.failures().size(),
        largest,
        samples.get(samples.size() - 1).counts());
    assertThat(sampler.wrong()).as("samples that counted a record twice").isEmpty();
    assertThat(samples.size()).as("samples taken").isGreaterThan(50);
    assertThat(samples.get(samples.size() - 1).counts())
        .as("the last sample")
        .isEqualTo(new GlobSampler.Counts(RECORDS, RECORDS));
  }

  @Test
  void underMergeByKeyTombstonesDeleteTheirKeysWithTheDefaultNullHandling() throws Exception {
    String topic = "keyed";
    int keys = 2_000;
    int versions = 5;
    Path lake = dir.resolve("keyed-lake");
    cluster.createTopic(topic, PARTITIONS);
    Map<String, String> config = sink(topic);
    config.put("topics.dir", lake.toString());
    config.put("write.policy", "merge_by_key");
    config.put("include.key", "true");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    assertThat(config).doesNotContainKey("behavior.on.null.values");
    cluster.connect().configureConnector(topic, config);
    cluster.awaitRunning(topic, PARTITIONS, Duration.ofSeconds(60));

    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (int version = 1; version <= versions; version++) {
        for (int key = 0; key < keys; key++) {
          String value = "{\"name\":\"n-" + key + "\",\"version\":" + version + "}";
          producer.send(record(topic, key, value.getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
      }
      for (int key = 0; key < keys; key += 10) {
        producer.send(record(topic, key, null));
      }
    }
    Map<String, Long> expected = new TreeMap<>();
    for (int key = 0; key < keys; key++) {
      if (key % 10 != 0) {
        expected.put("k-" + key, (long) versions);
      }
    }
    Path table = lake.resolve(topic);
    Await.until(
        LANDING,
        () -> "the glob of " + topic + " to hold the live keys; has " + keyedRows(table).size(),
        () -> keyedRows(table).equals(expected));
    assertThat(expected).hasSize(keys - keys / 10);
  }

  private static ProducerRecord<byte[], byte[]> record(String topic, int key, byte[] value) {
    return new ProducerRecord<>(
        topic, key % PARTITIONS, ("k-" + key).getBytes(StandardCharsets.UTF_8), value);
  }

  /** key → version of the glob's rows; fails on a key read twice or a row that is a delete. */
  private static Map<String, Long> keyedRows(Path table) {
    Map<String, Long> rows = new TreeMap<>();
    if (!GlobSampler.hasParquet(table)) {
      return rows;
    }
    try (DuckDbLake duck = new DuckDbLake(table.getParent())) {
      for (Map<String, Object> row :
          duck.query(
              "select __key, version, coalesce(__deleted, false) as deleted from read_parquet('"
                  + table
                  + "/**/*.parquet', union_by_name=true)")) {
        Long version =
            row.get("version") == null ? null : ((Number) row.get("version")).longValue();
        if (rows.put((String) row.get("__key"), version) != null
            || Boolean.TRUE.equals(row.get("deleted"))) {
          return Map.of("a key twice or a delete row: " + row, -1L);
        }
      }
    }
    return rows;
  }

  /** The keys ListObjectsV2 gives for the glob, then exactly those objects, read with DuckDB. */
  private static GlobSampler.Reader s3Glob(String prefix) {
    DuckDbLake duck = new DuckDbLake(dir);
    AtomicLong samples = new AtomicLong();
    return () -> {
      List<String> keys;
      try {
        keys = s3.objectKeys(BUCKET, prefix).stream().filter(k -> k.endsWith(".parquet")).toList();
      } catch (IllegalStateException e) {
        if (!String.valueOf(e.getMessage()).contains("HTTP 500")) {
          throw e;
        }
        // S3Mock answers a listing that meets a delete with 500; S3 clients retry a 500, so this
        // is a failed sample (tried again at the next pace), never a count.
        throw new GlobSampler.FileGone("listing " + prefix + ": " + e.getMessage(), e);
      }
      if (keys.isEmpty()) {
        return new GlobSampler.Counts(0, 0);
      }
      Path sample = dir.resolve("s3-sample-" + samples.incrementAndGet());
      List<Path> files = new ArrayList<>();
      try {
        for (String key : keys) {
          Path file = sample.resolve(files.size() + ".parquet");
          if (!download(key, file)) {
            throw new GlobSampler.FileGone("s3://" + BUCKET + "/" + key + " is gone", null);
          }
          files.add(file);
        }
        Map<String, Object> counts =
            duck.query(
                    "select count(*)::bigint as n, count(distinct id)::bigint as d from"
                        + " read_parquet("
                        + files.stream()
                            .map(f -> "'" + f + "'")
                            .collect(Collectors.joining(",", "[", "]"))
                        + ")")
                .get(0);
        return new GlobSampler.Counts((Long) counts.get("n"), (Long) counts.get("d"));
      } finally {
        deleteTree(sample);
      }
    };
  }

  /**
   * Copies one object; false when it is gone. S3Mock may answer a GET racing the object's delete
   * with an error instead of 404: then a listing tells whether it is gone.
   */
  private static boolean download(String key, Path file) {
    try {
      return s3.downloadObject(BUCKET, key, file);
    } catch (IllegalStateException e) {
      if (s3.objectKeys(BUCKET, key).contains(key)) {
        throw e;
      }
      return false;
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Batches of {@link #BATCH} records every 0.5 s: a unit or two per partition between merges. */
  private static void produce(String topic, AtomicLong produced) throws InterruptedException {
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (long id = 0; id < RECORDS; id++) {
        String json = "{\"id\":" + id + ",\"device\":\"d-" + id % 31 + "\",\"v\":" + id % 97 + "}";
        producer.send(
            new ProducerRecord<>(
                topic, (int) (id % PARTITIONS), null, json.getBytes(StandardCharsets.UTF_8)));
        produced.incrementAndGet();
        if (id % BATCH == BATCH - 1) {
          producer.flush();
          Thread.sleep(500); // the producer's pace, not a wait for a condition
        }
      }
    }
  }

  /** Small units every 0.5 s, merged every second once two are there; the default grace. */
  private static Map<String, String> sink(String topic) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", String.valueOf(PARTITIONS));
    config.put("topics", topic);
    config.put("store.rocksdb.path", dir.resolve("state-" + topic).toString());
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("flush.size", "1000");
    config.put("rotate.schedule.interval.ms", "500");
    config.put("compaction.interval.ms", "1000");
    config.put("compaction.min.files", "2");
    config.put("errors.tolerance", "none");
    return config;
  }
}
