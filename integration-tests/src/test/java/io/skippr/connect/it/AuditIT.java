package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr audit}, run as its own process the way ./skippr runs it, against a real broker and
 * worker with the built plugin. The topics are written in transactions (one aborted), so commit and
 * abort markers and aborted records lie between the lake's units. A lake that landed everything is
 * clean (exit 0); a deleted file, a forged overlapping unit (in scratch copies of the lake), and
 * consumer offsets moved past the lake (through the REST API, and behind the connector's back) are
 * each reported, with exit 1.
 */
class AuditIT {
  private static final Duration LANDED = Duration.ofMinutes(2);
  private static final Duration AUDIT = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOPIC = "audit-orders";
  private static final String CONNECTOR = "audit-lake";
  private static final int PARTITIONS = 2;

  @TempDir static Path root;
  private static ConnectCluster cluster;
  private static Admin admin;
  private static Path lake;

  @BeforeAll
  static void landTransactions() throws Exception {
    cluster = ConnectCluster.start("audit");
    admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    lake = root.resolve("lake");
    cluster.kafka().createTopic(TOPIC, PARTITIONS, 1, Map.of("retention.ms", "-1"));
    configure(CONNECTOR, TOPIC, lake);
    // Per partition: records 0..9, a commit marker at 10, aborted records 11..15, an abort
    // marker at 16, records 17..26, a commit marker at 27. Each transaction lands before the
    // next, so the lake's units are [0, 9] and [17, 26], with 10..16 between them.
    try (KafkaProducer<byte[], byte[]> producer = transactional("audit-orders-tx")) {
      transaction(producer, TOPIC, 0, 10, true);
      awaitRows(lake, TOPIC, 20);
      transaction(producer, TOPIC, 100, 5, false);
      transaction(producer, TOPIC, 200, 10, true);
      awaitRows(lake, TOPIC, 40);
    }
    awaitGroupOffsets("connect-" + CONNECTOR, TOPIC, 27);
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aLakeThatLandedEverythingIsCleanAndMarkersAreNoGaps() throws Exception {
    Audit audit = audit("clean", CONNECTOR, null);

    assertThat(audit.exit()).as(audit.output()).isZero();
    JsonNode report = audit.json();
    assertThat(report.get("status").asText()).isEqualTo("clean");
    assertThat(report.get("group").asText()).isEqualTo("connect-" + CONNECTOR);
    assertThat(report.get("lake_id").asText()).isNotBlank();
    assertThat(report.get("partitions")).hasSize(PARTITIONS);
    for (JsonNode tp : report.get("partitions")) {
      String name = tp.get("topic").asText() + "-" + tp.get("partition").asInt();
      assertThat(tp.get("status").asText()).as(name + ": " + tp).isEqualTo("clean");
      assertThat(tp.get("findings")).as(name).isEmpty();
      assertThat(tp.get("generations").get(0).get("start").asLong()).as(name).isZero();
      assertThat(tp.get("generations").get(0).get("end").asLong()).as(name).isEqualTo(26);
      assertThat(tp.get("generations").get(0).get("units").asInt()).as(name).isEqualTo(2);
      assertThat(tp.get("holes_without_records").asInt())
          .as(name + ": 10..16 holds markers and aborted records only")
          .isEqualTo(1);
      assertThat(tp.get("lake_next").asLong()).as(name).isEqualTo(27);
      assertThat(tp.get("group_offset").asLong()).as(name).isEqualTo(27);
      assertThat(tp.get("kafka").get("end").asLong()).as(name).isEqualTo(28);
      assertThat(tp.get("kafka").get("lag").asLong()).as(name + ": 27 is a marker").isZero();
    }

    Audit text = audit("clean-text", CONNECTOR, null, "--output", "text");
    System.out.println("skippr audit of a clean lake:\n" + text.stdout());
    assertThat(text.exit()).isZero();
    assertThat(text.stdout())
        .contains(TOPIC + "-0  clean    lake 0..26 (2 unit(s)); kafka 0..28, lag 0; group 27")
        .endsWith("result: clean (exit 0)\n");
  }

  @Test
  void aDeletedFileIsMissing() throws Exception {
    Path copy = scratchCopy("deleted-file");
    Path deleted = parquetFiles(copy, TOPIC + "+1+").get(0);
    Files.delete(deleted);
    String key = copy.relativize(deleted).toString();

    Audit audit = audit("deleted-file", CONNECTOR, copy);

    assertThat(audit.exit()).as(audit.output()).isEqualTo(1);
    JsonNode p1 = partition(audit.json(), 1);
    assertThat(p1.get("status").asText()).isEqualTo("problem");
    assertThat(kinds(p1)).containsExactly("missing_file");
    assertThat(p1.get("findings").get(0).get("file").asText()).isEqualTo(key);
    assertThat(partition(audit.json(), 0).get("status").asText()).isEqualTo("clean");
    System.out.println("skippr audit of a lake with a deleted file:\n" + audit.stdout());
  }

  @Test
  void aForgedUnitOverlappingAnotherIsADuplicate() throws Exception {
    Path copy = scratchCopy("forged-overlap");
    ForgedLog.forgeUnit(TOPIC, copy, 0, 20, 26);

    Audit audit = audit("forged-overlap", CONNECTOR, copy);

    assertThat(audit.exit()).as(audit.output()).isEqualTo(1);
    JsonNode p0 = partition(audit.json(), 0);
    assertThat(kinds(p0)).containsExactly("overlap");
    JsonNode overlap = p0.get("findings").get(0);
    assertThat(overlap.get("start").asLong()).isEqualTo(20);
    assertThat(overlap.get("end").asLong()).isEqualTo(26);
    assertThat(overlap.get("message").asText())
        .contains(TOPIC + "+0+00000000000000000017+00000000000000000026")
        .contains(TOPIC + "+0+00000000000000000020+00000000000000000026");
    assertThat(p0.get("lake_next").asLong()).isEqualTo(27);
    assertThat(partition(audit.json(), 1).get("status").asText()).isEqualTo("clean");
    System.out.println("skippr audit of a lake with a forged unit:\n" + audit.stdout());
  }

  /**
   * A log edited so that partition 1's first unit starts at offset 3: records 0..2 are in no unit
   * (as a writer that lost them would leave it), and Kafka holds them.
   */
  @Test
  void recordsInNoUnitThatKafkaHoldsAreAGap() throws Exception {
    Path copy = scratchCopy("edited-log");
    ForgedLog.editFirstUnitStart(TOPIC, copy, 1, 3);

    Audit audit = audit("edited-log", CONNECTOR, copy);

    assertThat(audit.exit()).as(audit.output()).isEqualTo(1);
    JsonNode p1 = partition(audit.json(), 1);
    assertThat(p1.get("status").asText()).isEqualTo("problem");
    assertThat(kinds(p1)).containsExactly("gap");
    JsonNode gap = p1.get("findings").get(0);
    assertThat(gap.get("start").asLong()).isZero();
    assertThat(gap.get("end").asLong()).isEqualTo(2);
    assertThat(gap.get("first_record").asLong()).isZero();
    assertThat(gap.get("message").asText()).contains("below the lake's first unit");
    assertThat(p1.get("generations").get(0).get("start").asLong()).isEqualTo(3);
    assertThat(audit.json().get("summary").get("findings").get("gap").asInt()).isEqualTo(1);
    assertThat(partition(audit.json(), 0).get("status").asText()).isEqualTo("clean");
    Audit text = audit("edited-log-text", CONNECTOR, copy, "--output", "text");
    assertThat(text.exit()).isEqualTo(1);
    assertThat(text.stdout())
        .contains("  gap: offsets 0..2 below the lake's first unit are in no unit")
        .endsWith("result: problem (exit 1)\n");
  }

  /**
   * Partition 0's offset moves past records the lake lacks through the REST API (the lake starts a
   * new generation there, so the skipped records are a gap between generations); partition 1's
   * moves behind the connector's back (the group is ahead of the lake).
   */
  @Test
  void consumerOffsetsMovedPastTheLakeAreReported() throws Exception {
    String topic = "audit-moved";
    String connector = "audit-moved-lake";
    Path moved = root.resolve("moved");
    cluster.kafka().createTopic(topic, PARTITIONS, 1, Map.of("retention.ms", "-1"));
    configure(connector, topic, moved);
    try (KafkaProducer<byte[], byte[]> producer = transactional("audit-moved-tx")) {
      transaction(producer, topic, 0, 10, true); // 0..9, marker 10
      awaitRows(moved, topic, 20);
      awaitGroupOffsets("connect-" + connector, topic, 10);
      cluster.connect().stopConnector(connector);
      Await.until(
          LANDED,
          connector + " stopped",
          () -> "STOPPED".equals(cluster.connect().connectorStatus(connector).connector().state()));
      transaction(producer, topic, 100, 10, true); // 11..20, marker 21
    }
    cluster.connect().alterSinkConnectorOffset(connector, new TopicPartition(topic, 0), 21L);
    admin
        .alterConsumerGroupOffsets(
            "connect-" + connector, Map.of(new TopicPartition(topic, 1), new OffsetAndMetadata(21)))
        .all()
        .get();

    Audit audit = audit("moved-offsets", connector, null);

    assertThat(audit.exit()).as(audit.output()).isEqualTo(1);
    JsonNode p0 = partition(audit.json(), 0);
    assertThat(kinds(p0)).containsExactly("generation", "gap");
    JsonNode gap = p0.get("findings").get(1);
    assertThat(gap.get("start").asLong()).isEqualTo(10);
    assertThat(gap.get("end").asLong()).isEqualTo(20);
    assertThat(gap.get("first_record").asLong()).isEqualTo(11);
    assertThat(gap.get("message").asText()).contains("through the REST API");
    assertThat(p0.get("lake_next").asLong()).isEqualTo(21);
    assertThat(p0.get("group_offset").asLong()).isEqualTo(21);
    JsonNode p1 = partition(audit.json(), 1);
    assertThat(kinds(p1)).containsExactly("lag", "group_ahead");
    JsonNode ahead = p1.get("findings").get(1);
    assertThat(ahead.get("start").asLong()).isEqualTo(11);
    assertThat(ahead.get("end").asLong()).isEqualTo(20);
    assertThat(p1.get("lake_next").asLong()).isEqualTo(10);
    assertThat(p1.get("group_offset").asLong()).isEqualTo(21);
    System.out.println("skippr audit after offsets moved past the lake:\n" + audit.stdout());
    Audit text = audit("moved-offsets-text", connector, null, "--output", "text");
    System.out.println(text.stdout());
    assertThat(text.exit()).isEqualTo(1);
    assertThat(text.stdout())
        .contains("  gap: offsets 10..20 between generation 0 and generation 1")
        .contains("  group_ahead: the group's committed offset 21 is past the lake")
        .endsWith("result: problem (exit 1)\n");
  }

  /**
   * With compaction on, each partition's four units are merged while the connector runs; the merged
   * file holds the offsets of its inputs, which left the table and wait out their grace under
   * {@code _skippr/retired/}. The lake is clean (no overlap, orphan or missing file), and still
   * clean once the retired inputs are gone.
   */
  @Test
  void aCompactedLakeIsCleanWithItsInputsInTheirGraceAndAfter() throws Exception {
    String topic = "audit-compacted";
    String connector = "audit-compacted-lake";
    Path compacted = root.resolve("compacted");
    cluster.kafka().createTopic(topic, PARTITIONS, 1, Map.of("retention.ms", "-1"));
    configure(
        connector,
        topic,
        compacted,
        Map.of(
            "compaction.min.files", "3",
            "compaction.interval.ms", "300",
            "compaction.grace.ms", "3600000"));
    try (KafkaProducer<byte[], byte[]> producer = transactional("audit-compacted-tx")) {
      for (int t = 0; t < 4; t++) { // records 6t..6t+4, a commit marker at 6t+5
        transaction(producer, topic, 100 * t, 5, true);
        awaitRows(compacted, topic, 10L * (t + 1));
      }
    }
    for (int p = 0; p < PARTITIONS; p++) {
      Path log = compacted.resolve("_skippr/log/" + topic + "/" + p);
      Await.until(LANDED, "a merge committed in " + log, () -> logHas(log, "compact-commit"));
    }
    awaitGroupOffsets("connect-" + connector, topic, 23);
    assertThat(rows(compacted, topic)).isEqualTo(40);

    Audit audit = audit("compacted", connector, null);

    assertThat(audit.exit()).as(audit.output()).isZero();
    System.out.println("skippr audit of a compacted lake:\n" + audit.stdout());
    for (int p = 0; p < PARTITIONS; p++) {
      JsonNode tp = partition(audit.json(), p);
      assertThat(tp.get("status").asText()).as(tp.toString()).isEqualTo("clean");
      assertThat(kinds(tp)).as(tp.toString()).doesNotContain("overlap", "orphan", "missing_file");
      JsonNode units = tp.get("generations").get(0);
      assertThat(units.get("start").asLong()).isZero();
      assertThat(units.get("end").asLong()).isEqualTo(22);
      assertThat(units.get("units").asInt()).as("merges are no units").isEqualTo(4);
      assertThat(tp.get("merges").asInt()).isPositive();
      assertThat(tp.get("live_files").asInt()).isLessThan(4);
      assertThat(tp.get("retired_files").asInt()).isGreaterThanOrEqualTo(3);
      assertThat(parquetFiles(compacted.resolve(topic), topic + "+" + p + "+"))
          .as("the table holds the live files only")
          .hasSize(tp.get("live_files").asInt());
      assertThat(retiredFiles(compacted, topic + "+" + p + "+"))
          .as("retired inputs are still on storage, in their grace, out of the table")
          .hasSizeGreaterThanOrEqualTo(tp.get("retired_files").asInt());
    }

    Audit text = audit("compacted-text", connector, null, "--output", "text");
    System.out.println(text.stdout());
    assertThat(text.exit()).isZero();
    assertThat(text.stdout())
        .contains(" merge(s), ")
        .contains(" retired (deleted after their grace)")
        .endsWith("result: clean (exit 0)\n");

    // As after the grace: the retired inputs deleted (before or after the log records it).
    Path copy = root.resolve("compacted-after-grace");
    copyTree(compacted, copy);
    int deleted = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      for (String input : mergeInputs(copy.resolve("_skippr/log/" + topic + "/" + p))) {
        Files.delete(copy.resolve("_skippr/retired/" + input + ".retired"));
        deleted++;
      }
    }
    assertThat(deleted).isGreaterThanOrEqualTo(2 * 3);
    Audit after = audit("compacted-after-grace", connector, copy);
    assertThat(after.exit()).as(after.output()).isZero();
    for (int p = 0; p < PARTITIONS; p++) {
      JsonNode tp = partition(after.json(), p);
      assertThat(kinds(tp)).as(tp.toString()).doesNotContain("missing_file", "orphan", "overlap");
    }
  }

  /** The keys every compact-commit entry of a TP log retired. */
  private static List<String> mergeInputs(Path log) throws IOException {
    List<String> inputs = new ArrayList<>();
    try (Stream<Path> entries = Files.list(log)) {
      for (Path entry : entries.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        JsonNode node = JSON.readTree(entry.toFile());
        if (node.get("kind").asText().equals("compact-commit")) {
          node.get("inputs").forEach(input -> inputs.add(input.asText()));
        }
      }
    }
    return inputs;
  }

  private static boolean logHas(Path log, String kind) {
    try (Stream<Path> entries = Files.list(log)) {
      for (Path entry : entries.filter(f -> f.toString().endsWith(".json")).toList()) {
        if (JSON.readTree(entry.toFile()).get("kind").asText().equals(kind)) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  /** What one audit process printed; {@code stdout()} is JSON unless asked otherwise. */
  private record Audit(int exit, String stdout, String output) {
    JsonNode json() throws IOException {
      return JSON.readTree(stdout);
    }
  }

  /** Runs {@code skippr audit} with the connector's config from the REST API. */
  private static Audit audit(String name, String connector, Path topicsDir, String... extra)
      throws Exception {
    List<String> args = new ArrayList<>();
    args.add("audit");
    args.add("--connector=" + connector);
    args.add("--connect-url=" + cluster.connect().endpointForResource(""));
    args.add("--bootstrap-servers=" + cluster.bootstrapServers());
    if (topicsDir != null) {
      args.add("--topics-dir=" + topicsDir);
    }
    args.addAll(extra.length == 0 ? List.of("--output", "json") : List.of(extra));
    CliProcess process =
        CliProcess.start(
            "audit-" + name, root.resolve("logs"), args, Path.of("").toAbsolutePath(), Map.of());
    int exit = process.awaitExit(AUDIT);
    return new Audit(exit, process.stdout(), process.output());
  }

  private static void configure(String name, String topic, Path lakeDir) {
    configure(name, topic, lakeDir, Map.of());
  }

  private static void configure(
      String name, String topic, Path lakeDir, Map<String, String> settings) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("topics.dir", lakeDir.toString());
    config.put("consumer.override.isolation.level", "read_committed");
    config.put("rotate.schedule.interval.ms", "500");
    config.put("flush.size", "100000");
    config.put("state.mirror", "off");
    config.put("behavior.on.offset.discontinuity", "new_generation");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.putAll(settings);
    cluster.connect().configureConnector(name, config);
  }

  private static KafkaProducer<byte[], byte[]> transactional(String id) {
    KafkaProducer<byte[], byte[]> producer =
        cluster
            .kafka()
            .createProducer(
                Map.of(
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, id, ProducerConfig.ACKS_CONFIG, "all"));
    producer.initTransactions();
    return producer;
  }

  /** One transaction of {@code count} records per partition, committed or aborted. */
  private static void transaction(
      KafkaProducer<byte[], byte[]> producer, String topic, int first, int count, boolean commit) {
    producer.beginTransaction();
    for (int i = 0; i < count; i++) {
      for (int p = 0; p < PARTITIONS; p++) {
        String value = "{\"p\":" + p + ",\"seq\":" + (first + i) + "}";
        producer.send(
            new ProducerRecord<>(
                topic,
                p,
                ("k" + (first + i)).getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8)));
      }
    }
    if (commit) {
      producer.commitTransaction();
    } else {
      producer.flush(); // into the log first: an abort drops records not yet sent
      producer.abortTransaction();
    }
  }

  private static void awaitRows(Path lakeDir, String table, long rows) {
    Await.until(
        LANDED,
        () -> rows + " rows in " + lakeDir + "; has " + rows(lakeDir, table),
        () -> rows(lakeDir, table) == rows);
  }

  private static long rows(Path lakeDir, String table) {
    try (DuckDbLake read = new DuckDbLake(lakeDir)) {
      return read.hasFiles(table) ? read.count("select count(*) from " + read.table(table)) : 0;
    }
  }

  /** Waits until Connect committed {@code offset} for every partition of the topic. */
  private static void awaitGroupOffsets(String group, String topic, long offset) {
    Await.until(
        LANDED,
        () -> group + " to commit " + offset + " on " + topic + "; has " + committed(group),
        () -> {
          Map<TopicPartition, OffsetAndMetadata> committed = committed(group);
          for (int p = 0; p < PARTITIONS; p++) {
            OffsetAndMetadata at = committed.get(new TopicPartition(topic, p));
            if (at == null || at.offset() != offset) {
              return false;
            }
          }
          return true;
        });
  }

  private static Map<TopicPartition, OffsetAndMetadata> committed(String group) {
    try {
      return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the offsets of " + group, e);
    }
  }

  /** A copy of the landed lake to damage. */
  private static Path scratchCopy(String name) throws IOException {
    Path copy = root.resolve(name);
    copyTree(lake, copy);
    return copy;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  /** Retired files waiting out their grace, named for a prefix. */
  private static List<Path> retiredFiles(Path lakeDir, String prefix) throws IOException {
    Path retired = lakeDir.resolve("_skippr/retired");
    return Files.isDirectory(retired) ? files(retired, prefix, ".parquet.retired") : List.of();
  }

  private static List<Path> parquetFiles(Path lakeDir, String prefix) throws IOException {
    return files(lakeDir, prefix, ".parquet");
  }

  private static List<Path> files(Path dir, String prefix, String suffix) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith(prefix))
          .filter(f -> f.toString().endsWith(suffix))
          .sorted()
          .toList();
    }
  }

  private static JsonNode partition(JsonNode report, int p) {
    for (JsonNode tp : report.get("partitions")) {
      if (tp.get("partition").asInt() == p) {
        return tp;
      }
    }
    throw new AssertionError("no partition " + p + " in " + report);
  }

  private static List<String> kinds(JsonNode tp) {
    List<String> kinds = new ArrayList<>();
    tp.get("findings").forEach(f -> kinds.add(f.get("kind").asText()));
    return kinds;
  }
}
