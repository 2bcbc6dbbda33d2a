package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction while the lake sink keeps writing: small units stream in on two partitions, the
 * maintenance thread merges them, and at every sampled moment the table read through the lake log
 * holds every row once (never a merged file and its inputs together). When the stream stops the
 * live files are far fewer than the units written, and the retired ones leave storage after the
 * grace period. A reader of the log that lists the files just before a merge moves one may fail on
 * it, and reads again.
 */
class CompactionIT {
  private static final String TOPIC = "events";
  private static final int PARTITIONS = 2;
  private static final long RECORDS = 12_000;
  private static final AtomicLong READ_AGAIN = new AtomicLong();

  @TempDir static Path dir;
  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster = ConnectCluster.start("compaction-it");
    cluster.createTopic(TOPIC, PARTITIONS);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void mergesWhileWritingAndReadersOfTheLogSeeEveryRowOnce() throws Exception {
    Path lake = dir.resolve("lake");
    cluster.connect().configureConnector("lake", sink(lake));
    cluster.awaitRunning("lake", 1, Duration.ofSeconds(60));

    AtomicLong produced = new AtomicLong();
    Thread producer = new Thread(() -> produce(produced), "events-producer");
    producer.start();
    List<String> samples = new ArrayList<>();
    while (producer.isAlive()) {
      samples.add(sample(lake, produced.get()));
      Thread.sleep(300);
    }
    producer.join();

    Await.until(
        Duration.ofMinutes(3),
        () ->
            "every row landed and merged: "
                + sample(lake, RECORDS)
                + ", files "
                + ManifestView.fileCount(lake, TOPIC),
        () ->
            rows(lake).equals(List.of(RECORDS, RECORDS))
                && ManifestView.fileCount(lake, TOPIC) <= 5 * PARTITIONS);
    long units = LakeLogAudit.count(lake, TOPIC, PARTITIONS, "commit");
    System.out.println(
        "CompactionIT samples: "
            + samples.size()
            + ", units "
            + units
            + ", reads again after a merge moved a listed file: "
            + READ_AGAIN.get());
    assertThat(samples.size()).as("samples taken while writing").isGreaterThan(5);
    assertThat(units).as("units written").isGreaterThan(100);
    Path retired = lake.resolve("_skippr/retired");
    Await.until(
        Duration.ofMinutes(1),
        () -> "the table to hold the live files only, and retired files deleted after the grace",
        () ->
            parquetFiles(lake.resolve(TOPIC)) == ManifestView.fileCount(lake, TOPIC)
                && (!Files.exists(retired) || filesIn(retired) == 0));
  }

  private static long filesIn(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).count();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Asserts the log's view holds each row once and no row not yet produced. */
  private static String sample(Path lake, long producedSoFar) {
    List<Long> counts = rows(lake);
    assertThat(counts.get(0)).as("rows vs distinct ids through the log").isEqualTo(counts.get(1));
    assertThat(counts.get(0)).isLessThanOrEqualTo(Math.max(producedSoFar, RECORDS));
    return counts.get(0) + " rows in " + ManifestView.fileCount(lake, TOPIC) + " files";
  }

  /**
   * Rows and distinct ids through the log. A merge that moves a listed file before DuckDB opens it
   * makes the query fail (it never reads a row twice): then it reads the log again.
   */
  private static List<Long> rows(Path lake) {
    for (int attempt = 1; ; attempt++) {
      try {
        return rowsOnce(lake);
      } catch (IllegalStateException e) {
        String why = String.valueOf(e.getCause() == null ? e : e.getCause().getMessage());
        if (attempt == 5 || !GlobSampler.isFileGone(why)) {
          throw e;
        }
        READ_AGAIN.incrementAndGet();
      }
    }
  }

  private static List<Long> rowsOnce(Path lake) {
    List<Map<String, Object>> rows =
        ManifestView.query(
            lake, TOPIC, "count(*)::bigint as n, count(distinct id)::bigint as d", "");
    if (rows.isEmpty()) {
      return List.of(0L, 0L);
    }
    return List.of((Long) rows.get(0).get("n"), (Long) rows.get(0).get("d"));
  }

  private static long parquetFiles(Path table) {
    try (Stream<Path> files = Files.walk(table)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).count();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void produce(AtomicLong produced) {
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (long id = 0; id < RECORDS; id++) {
        String json =
            "{\"id\":"
                + id
                + ",\"at\":\"2026-12-01T10:"
                + String.format("%02d:%02d", id / 60 % 60, id % 60)
                + "Z\",\"device\":{\"name\":\"d-"
                + id % 31
                + "\",\"tags\":[\"a\",\"b\"]},\"reading\":"
                + (id % 1000) / 10.0
                + "}";
        producer.send(
            new ProducerRecord<>(
                TOPIC, (int) (id % PARTITIONS), null, json.getBytes(StandardCharsets.UTF_8)));
        produced.incrementAndGet();
        if (id % 200 == 199) {
          producer.flush();
          Thread.sleep(100);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Map<String, String> sink(Path lake) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", TOPIC);
    config.put("topics.dir", lake.toString());
    config.put("store.rocksdb.path", dir.resolve("state").toString());
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("flush.size", "50");
    config.put("rotate.schedule.interval.ms", "500");
    config.put("compaction.min.files", "5");
    config.put("compaction.interval.ms", "700");
    config.put("compaction.grace.ms", "3000");
    config.put("compaction.target.bytes", String.valueOf(1 << 20));
    config.put("errors.tolerance", "none");
    return config;
  }
}
