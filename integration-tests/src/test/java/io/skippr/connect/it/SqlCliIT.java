package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.LogHistory;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.S3MockServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr sql} and {@code skippr files}, each run as its own process as a user runs them,
 * against lake sinks that write and merge meanwhile: an appended table counts every record once, a
 * merge_by_key table (versions of every key and tombstones, with the default null handling) is at
 * every moment the current state after some prefix of each partition, one row per live key; the
 * outputs, the table listing, the file list, a lake on S3 and a bad query.
 */
@ExtendWith(S3MockServer.Shared.class)
class SqlCliIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ORDERS = "sql-orders";
  private static final String ACCOUNTS = "sql-accounts";
  private static final String BUCKET = "sql-lake";
  private static final int PARTITIONS = 2;
  private static final int KEYS = 40;
  private static final int ROUNDS = 8;
  private static final int SLICES = 20;
  private static final Duration PACE = Duration.ofMillis(250);
  private static final int MOMENTS = 6;
  private static final int ORDERS_PER_ROUND = 300;
  private static final Duration CLI = Duration.ofMinutes(2);
  private static final Duration DRAIN = Duration.ofMinutes(3);

  @TempDir static Path dir;
  private static ConnectCluster cluster;
  private static S3MockServer s3;
  private static String connectUrl;
  private static Path lake;
  private static int runs;

  @BeforeAll
  static void start(S3MockServer server) {
    s3 = server;
    s3.createBucket(BUCKET);
    lake = dir.resolve("lake");
    cluster = ConnectCluster.start("sql-cli");
    cluster.createTopic(ORDERS, PARTITIONS);
    cluster.createTopic(ACCOUNTS, PARTITIONS);
    connectUrl = cluster.connect().endpointForResource("").replaceAll("/+$", "");
    Map<String, String> orders = sink(ORDERS);
    orders.put("topics.dir", lake.toString());
    startSink("orders-lake", orders);
    Map<String, String> accounts = sink(ACCOUNTS);
    accounts.put("topics.dir", lake.toString());
    accounts.put("write.policy", "merge_by_key");
    accounts.put("include.key", "true");
    startSink("accounts-lake", accounts);
    Map<String, String> onS3 = sink(ORDERS);
    onS3.put("topics.dir", "s3://" + BUCKET + "/lake");
    onS3.put("s3.endpoint", s3.endpoint().toString());
    onS3.put("s3.path.style.access", "true");
    onS3.put("aws.access.key.id", S3MockServer.ACCESS_KEY);
    onS3.put("aws.secret.access.key", S3MockServer.SECRET_KEY);
    startSink("orders-s3", onS3);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void readsEveryTableExactlyWhileTheSinksWriteAndMerge() throws Exception {
    KeyedChanges changes = new KeyedChanges();
    AtomicLong ordersSent = new AtomicLong();
    AtomicInteger momentsStarted = new AtomicInteger();
    ExecutorService producer = Executors.newSingleThreadExecutor();
    Future<?> producing = producer.submit(() -> produce(changes, ordersSent, momentsStarted));
    try {
      Await.until(
          DRAIN,
          "both tables' first files",
          () ->
              ManifestView.fileCount(lake, ACCOUNTS) > 0
                  && ManifestView.fileCount(lake, ORDERS) > 0);
      int whileWriting = 0;
      for (int moment = 1; moment <= MOMENTS; moment++) {
        momentsStarted.set(moment);
        boolean writing = !producing.isDone();
        // The lake alone: the policy and key come from the lake's record of them.
        JsonNode state = sqlJson("--lake", lake.toString(), accountsQuery());
        changes.assertPrefixState(state, "moment " + moment);
        JsonNode counted =
            sqlJson(
                "--lake",
                lake.toString(),
                "select count(*) as n, count(distinct id) as ids from \"" + ORDERS + "\"");
        long n = counted.get(0).get("n").asLong();
        assertThat(n)
            .as("moment " + moment + ": orders once")
            .isEqualTo(counted.get(0).get("ids").asLong());
        assertThat(n).isLessThanOrEqualTo(ordersSent.get());
        whileWriting += writing && !producing.isDone() ? 1 : 0;
        System.out.printf(
            "moment %d%s: %d live account(s), %d order(s) of %d sent%n",
            moment, writing ? " (producing)" : "", state.size(), n, ordersSent.get());
      }
      System.out.printf("%d of %d moments while the producer was sending%n", whileWriting, MOMENTS);
      assertThat(whileWriting)
          .as("moments taken while the producer was sending (not all after it)")
          .isGreaterThanOrEqualTo(MOMENTS / 2);
      producing.get();
    } finally {
      producer.shutdownNow();
    }
    drain("orders-lake", ROUNDS * ORDERS_PER_ROUND);
    drain("accounts-lake", ROUNDS * KEYS);
    drain("orders-s3", ROUNDS * ORDERS_PER_ROUND);

    for (String[] reader :
        List.of(
            new String[] {"--connector", "accounts-lake"},
            new String[] {"--lake", lake.toString()})) {
      Map<String, Long> finalState = new TreeMap<>();
      List<String> args = new ArrayList<>(List.of(reader));
      args.add(accountsQuery());
      for (JsonNode row : sqlJson(args.toArray(String[]::new))) {
        finalState.put(row.get("__key").asText(), row.get("balance").asLong());
      }
      assertThat(finalState).as(String.join(" ", reader)).isEqualTo(changes.finalState());
    }
    assertThat(merges(ACCOUNTS)).as("merges of the accounts' files").isPositive();

    assertTablesAsTheLogSays(changes);
    assertOutputs();
    assertFiles();
    assertS3();
    assertBadQueryIsOneLine();
  }

  private static String accountsQuery() {
    return "select __key, __partition, __offset, balance from \"" + ACCOUNTS + "\"";
  }

  /** --tables: what the logs list, and the rows in the files when the test's DuckDB counts them. */
  private static void assertTablesAsTheLogSays(KeyedChanges changes) throws Exception {
    Map<String, List<LiveFile>> live = LakeManifest.liveFiles(new LocalLakeStorage(lake));
    JsonNode tables = sqlJson("--lake", lake.toString(), "--tables");
    assertThat(tables).hasSize(2);
    for (JsonNode table : tables) {
      String name = table.get("table").asText();
      List<LiveFile> files = live.get(name);
      assertThat(table.get("policy").asText())
          .as("the policy the lake records for " + name)
          .isEqualTo(name.equals(ACCOUNTS) ? "merge_by_key(__key)" : "append");
      assertThat(table.get("files").asInt()).isEqualTo(files.size());
      assertThat(table.get("rows").asLong())
          .isEqualTo(files.stream().mapToLong(LiveFile::rows).sum())
          .isEqualTo(ManifestView.query(lake, name, "count(*)::bigint as n", "").get(0).get("n"));
      assertThat(table.get("bytes").asLong())
          .isEqualTo(files.stream().mapToLong(LiveFile::bytes).sum());
      assertThat(table.get("last_commit").asText()).endsWith("Z");
    }
    assertThat(tables.get(0).get("table").asText()).isEqualTo(ACCOUNTS);
    assertThat(tables.get(1).get("rows").asLong()).isEqualTo((long) ROUNDS * ORDERS_PER_ROUND);

    JsonNode connectors = sqlJson("--connector", "accounts-lake", "--tables");
    assertThat(connectors).hasSize(1);
    assertThat(connectors.get(0).get("policy").asText()).isEqualTo("merge_by_key(__key)");
    String count = "select count(*) as n from \"" + ACCOUNTS + "\"";
    long liveKeys = sqlJson("--lake", lake.toString(), count).get(0).get("n").asLong();
    assertThat(liveKeys)
        .isEqualTo(changes.finalState().size())
        .isEqualTo(KEYS - deletedInRound(ROUNDS));
    assertThat(
            sqlJson("--lake", lake.toString(), "--merge-key", ACCOUNTS, count)
                .get(0)
                .get("n")
                .asLong())
        .as("--merge-key as the record says")
        .isEqualTo(liveKeys);
  }

  /** The keys the last round deleted: {@code (i + round) % 7 == 0}. */
  private static long deletedInRound(int round) {
    long deleted = 0;
    for (int i = 0; i < KEYS; i++) {
      deleted += (i + round) % 7 == 0 ? 1 : 0;
    }
    return deleted;
  }

  /** The same three orders as a table, as CSV and as JSON. */
  private static void assertOutputs() throws Exception {
    String query = "select id, amount from \"" + ORDERS + "\" where id < 3 order by id";
    assertThat(sql("--lake", lake.toString(), "--output", "table", query))
        .isEqualTo(
            String.join(
                "\n",
                " id | amount",
                "----+--------",
                "  0 |    0.0",
                "  1 |    1.5",
                "  2 |    3.0",
                "(3 rows)",
                ""));
    assertThat(sql("--lake", lake.toString(), "--output", "csv", query))
        .isEqualTo("id,amount\n0,0.0\n1,1.5\n2,3.0\n");
    assertThat(sql("--lake", lake.toString(), "--output", "json", query))
        .isEqualTo(
            "[\n{\"id\":0,\"amount\":0.0},\n{\"id\":1,\"amount\":1.5},\n{\"id\":2,\"amount\":3.0}\n]\n");
  }

  /** skippr files: the live files, which the test's own DuckDB reads back whole. */
  private static void assertFiles() throws Exception {
    List<String> listed = files("--lake", lake.toString(), "--table", ORDERS).lines().toList();
    Map<String, List<LiveFile>> live = LakeManifest.liveFiles(new LocalLakeStorage(lake));
    assertThat(new TreeSet<>(listed))
        .isEqualTo(
            live.get(ORDERS).stream()
                .map(f -> lake.resolve(f.key()).toString())
                .collect(Collectors.toCollection(TreeSet::new)));
    String files =
        listed.stream().map(p -> "'" + p + "'").collect(Collectors.joining(",", "[", "]"));
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      assertThat(duck.count("select count(distinct id) from read_parquet(" + files + ")"))
          .isEqualTo(duck.count("select count(*) from read_parquet(" + files + ")"))
          .isEqualTo((long) ROUNDS * ORDERS_PER_ROUND);
    }
    JsonNode doc =
        JSON.readTree(
            files("--connector", "accounts-lake", "--table", ACCOUNTS, "--output", "json"));
    JsonNode table = doc.get("tables").get(0);
    assertThat(table.get("policy").asText()).isEqualTo("merge_by_key");
    assertThat(table.get("key").get(0).asText()).isEqualTo("__key");
    assertThat(table.get("files")).hasSize(live.get(ACCOUNTS).size());
    JsonNode recorded =
        JSON.readTree(files("--lake", lake.toString(), "--table", ACCOUNTS, "--output", "json"))
            .get("tables")
            .get(0);
    assertThat(recorded.get("policy").asText()).as("the lake's record").isEqualTo("merge_by_key");
    assertThat(recorded.get("key").get(0).asText()).isEqualTo("__key");
  }

  /** A lake on S3: named by the connector, and by its URI with settings and the environment. */
  private static void assertS3() throws Exception {
    String count = "select count(*) as n, count(distinct id) as ids from \"" + ORDERS + "\"";
    String expected =
        "n,ids\n" + ROUNDS * ORDERS_PER_ROUND + "," + ROUNDS * ORDERS_PER_ROUND + "\n";
    assertThat(sql("--connector", "orders-s3", "--output", "csv", count)).isEqualTo(expected);
    CliProcess byUri =
        run(
            List.of(
                "sql",
                "--lake",
                "s3://" + BUCKET + "/lake",
                "--setting",
                "s3.endpoint=" + s3.endpoint(),
                "--setting",
                "s3.path.style.access=true",
                "--output",
                "csv",
                count),
            Map.of(
                "AWS_ACCESS_KEY_ID", S3MockServer.ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY", S3MockServer.SECRET_KEY));
    assertThat(byUri.awaitExit(CLI)).as(byUri.output()).isZero();
    assertThat(byUri.stdout()).isEqualTo(expected);
    String uris = files("--connector", "orders-s3", "--table", ORDERS);
    assertThat(uris.lines())
        .isNotEmpty()
        .allMatch(uri -> uri.startsWith("s3://" + BUCKET + "/lake/" + ORDERS + "/"));
  }

  private static void assertBadQueryIsOneLine() throws Exception {
    CliProcess bad =
        run(List.of("sql", "--lake", lake.toString(), "select * from \"sql-nope\""), Map.of());
    assertThat(bad.awaitExit(CLI)).isEqualTo(1);
    assertThat(bad.stdout()).isEmpty();
    assertThat(bad.errorLines()).hasSize(1);
    assertThat(bad.errorLines().get(0))
        .startsWith("skippr sql: Catalog Error: Table with name sql-nope does not exist");
  }

  /**
   * Sends {@link #ROUNDS} rounds at a client's pace: each round every account once (a new balance,
   * or a tombstone for keys with {@code (i + round) % 7 == 0}, back the round after), each in its
   * own partition, and {@link #ORDERS_PER_ROUND} orders, in {@link #SLICES} slices. Round {@code r
   * + 1} starts once the reader started moment {@code r}, so on a slow machine the producer does
   * not finish before the moments are taken: each is taken while the next round is sent.
   */
  private static Void produce(
      KeyedChanges changes, AtomicLong ordersSent, AtomicInteger momentsStarted) throws Exception {
    try (KafkaProducer<byte[], byte[]> producer = cluster.bulkProducer()) {
      for (int round = 1; round <= ROUNDS; round++) {
        int moment = Math.min(round - 1, MOMENTS);
        Await.until(
            CLI.multipliedBy(2),
            "moment " + moment + " of the reader to start",
            () -> momentsStarted.get() >= moment);
        for (int slice = 0; slice < SLICES; slice++) {
          for (int i = slice * KEYS / SLICES; i < (slice + 1) * KEYS / SLICES; i++) {
            sendAccount(producer, round, i, changes);
          }
          for (int i = slice * ORDERS_PER_ROUND / SLICES;
              i < (slice + 1) * ORDERS_PER_ROUND / SLICES;
              i++) {
            ordersSent.incrementAndGet();
            sendOrder(producer, (long) (round - 1) * ORDERS_PER_ROUND + i);
          }
          producer.flush();
          Thread.sleep(PACE.toMillis()); // the client's pace, not a wait for a condition
        }
      }
    }
    return null;
  }

  private static void sendOrder(KafkaProducer<byte[], byte[]> producer, long id) {
    String json =
        "{\"id\":" + id + ",\"amount\":" + id * 1.5 + ",\"customer\":\"c" + id % 10 + "\"}";
    producer.send(
        new ProducerRecord<>(
            ORDERS, (int) (id % PARTITIONS), null, json.getBytes(StandardCharsets.UTF_8)));
  }

  private static void sendAccount(
      KafkaProducer<byte[], byte[]> producer, int round, int i, KeyedChanges changes)
      throws Exception {
    String key = String.format("acct-%03d", i);
    Long balance = (i + round) % 7 == 0 ? null : (long) round * 1000 + i;
    byte[] value =
        balance == null
            ? null
            : ("{\"id\":" + i + ",\"balance\":" + balance + "}").getBytes(StandardCharsets.UTF_8);
    int partition = i % PARTITIONS;
    long offset = changes.next(partition, key, balance);
    RecordMetadata sent =
        producer
            .send(
                new ProducerRecord<>(
                    ACCOUNTS, partition, key.getBytes(StandardCharsets.UTF_8), value))
            .get();
    assertThat(sent.offset()).as("the offset noted for " + key).isEqualTo(offset);
  }

  private static long merges(String topic) throws Exception {
    LocalLakeStorage storage = new LocalLakeStorage(lake);
    long merges = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      merges +=
          LogHistory.read(storage, new LakeLayout(), topic, p).entries().stream()
              .filter(e -> e.entry() instanceof LogEntry.CompactCommit)
              .count();
    }
    return merges;
  }

  private static void drain(String connector, long records) {
    Await.until(
        DRAIN,
        () -> connector + " to commit " + records + " offsets; " + cluster.statusOrError(connector),
        () -> committedOffsets(connector) == records);
  }

  private static long committedOffsets(String connector) {
    long sum = 0;
    for (ConnectorOffset offset : cluster.connect().connectorOffsets(connector).offsets()) {
      sum += ((Number) offset.offset().get("kafka_offset")).longValue();
    }
    return sum;
  }

  private static JsonNode sqlJson(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("--output", "json"));
    all.addAll(List.of(args));
    return JSON.readTree(sql(all.toArray(String[]::new)));
  }

  /** Runs skippr sql, expecting exit 0; its standard output. */
  private static String sql(String... args) throws Exception {
    return ok("sql", args);
  }

  private static String files(String... args) throws Exception {
    return ok("files", args);
  }

  private static String ok(String command, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(command));
    if (List.of(args).contains("--connector")) {
      all.addAll(List.of("--connect-url", connectUrl));
    }
    all.addAll(List.of(args));
    CliProcess process = run(all, Map.of());
    assertThat(process.awaitExit(CLI)).as(process.output()).isZero();
    assertThat(process.errorLines()).as(process.output()).isEmpty();
    return process.stdout();
  }

  private static CliProcess run(List<String> args, Map<String, String> env) throws Exception {
    return CliProcess.start(
        args.get(0) + "-" + ++runs, dir.resolve("logs"), args, Path.of("").toAbsolutePath(), env);
  }

  private static Map<String, String> sink(String topic) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("include.kafka.metadata", "true");
    // Small units and merges every second: the CLI reads between and across merges.
    config.put("flush.size", "25");
    config.put("rotate.schedule.interval.ms", "500");
    config.put("compaction.interval.ms", "1000");
    config.put("compaction.min.files", "2");
    config.put("compaction.grace.ms", "60000");
    config.put("errors.tolerance", "none");
    config.put("store.rocksdb.path", dir.resolve("state").toString());
    return config;
  }

  private static void startSink(String name, Map<String, String> config) {
    cluster.connect().configureConnector(name, config);
    cluster.awaitRunning(name, 1, Duration.ofMinutes(1));
  }
}
