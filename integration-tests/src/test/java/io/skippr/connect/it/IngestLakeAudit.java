package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Compares a lake table written from HTTP ingest with its topic as a read_committed consumer sees
 * it, and with the rows clients got 204 for.
 */
final class IngestLakeAudit {

  /** What the comparison found. */
  record Result(long committed, long lakeRows, long distinctRows, long acknowledged) {
    /** Rows in the lake more than once: copies a retry after a lost answer created. */
    long retryDuplicates() {
      return lakeRows - distinctRows;
    }
  }

  private IngestLakeAudit() {}

  /**
   * Waits until the lake holds as many rows as the topic has committed records, then checks that
   * the lake is exactly the committed records (each (partition, offset) once, none of an aborted
   * transaction, none missing) and holds every acknowledged row.
   */
  static Result check(
      String bootstrap, Path lake, String topic, Set<String> acknowledged, Duration timeout) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      String table = "${table:" + topic + "}";
      // Read the topic again each time: a transaction whose request timed out may still commit.
      Set<Long> committed = new HashSet<>();
      Await.until(
          timeout,
          () -> "the lake to hold the " + committed.size() + " committed records of " + topic,
          new Throttled(
              Duration.ofSeconds(3),
              () -> {
                committed.clear();
                committed.addAll(committedPositions(bootstrap, topic));
                return duck.hasFiles(topic)
                    && duck.count("select count(*) from " + table) == committed.size();
              }));
      long rows = duck.count("select count(*) from " + table);
      assertThat(duck.count("select count(distinct (__partition, __offset)) from " + table))
          .as("records landed twice")
          .isEqualTo(rows);
      Set<Long> landed = new HashSet<>();
      for (Map<String, Object> r : duck.query("select __partition p, __offset o from " + table)) {
        landed.add(position(((Number) r.get("p")).intValue(), ((Number) r.get("o")).longValue()));
      }
      Set<Long> aborted = new HashSet<>(landed);
      aborted.removeAll(committed);
      Set<Long> missing = new HashSet<>(committed);
      missing.removeAll(landed);
      assertThat(aborted).as("lake rows that are no committed record (aborted)").isEmpty();
      assertThat(missing).as("committed records missing from the lake").isEmpty();
      Set<String> identities = new HashSet<>();
      for (Map<String, Object> r : duck.query("select client, req, \"row\" from " + table)) {
        identities.add(r.get("client") + "/" + r.get("req") + "/" + r.get("row"));
      }
      Set<String> lost = new HashSet<>(acknowledged);
      lost.removeAll(identities);
      assertThat(lost).as("rows that got 204 but are not in the lake").isEmpty();
      return new Result(committed.size(), rows, identities.size(), acknowledged.size());
    }
  }

  /** (partition, offset) of every record a read_committed consumer reads from the topic. */
  static Set<Long> committedPositions(String bootstrap, String topic) {
    Set<Long> positions = new HashSet<>();
    readCommitted(bootstrap, topic, r -> positions.add(position(r.partition(), r.offset())));
    return positions;
  }

  /**
   * Hands every record a read_committed consumer reads from the topic, up to its end, to {@code
   * each}.
   */
  static void readCommitted(
      String bootstrap, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
    readCommitted(bootstrap, topic, Duration.ofMinutes(2), each);
  }

  /** As {@link #readCommitted(String, String, Consumer)}, allowing {@code timeout} to read it. */
  static void readCommitted(
      String bootstrap,
      String topic,
      Duration timeout,
      Consumer<ConsumerRecord<byte[], byte[]>> each) {
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
            10_000);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      Await.until(
          timeout,
          () -> "reading " + topic + " to its end",
          () -> {
            consumer.poll(Duration.ofMillis(500)).forEach(each);
            return ends.entrySet().stream()
                .allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
          });
    }
  }

  private static long position(int partition, long offset) {
    return ((long) partition << 48) | offset;
  }
}
