package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file source in a real worker with exactly-once source support, loading the built plugin, into
 * the lake sink (read_committed); DuckDB reads the lake back: every line exactly once, rejected
 * lines in their own table, completed files deleted, followed logs rotated by rename and
 * copytruncate while being read, and line protocol from a file in the same table as the same
 * measurement sent to the HTTP ingest source.
 */
class FileSourceLakeIT {

  private static final Duration LAND = Duration.ofMinutes(3);

  @TempDir static Path root;
  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster =
        ConnectCluster.start(
            "file-source-lake", 1, Map.of("exactly.once.source.support", "enabled"));
    for (String topic :
        List.of("files.orders", "files.rows", "files.rejected", "files.logs", "lp.cpu")) {
      cluster.createTopic(topic, 2);
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void ndjsonCsvAndGzipFilesLandExactlyOnceAndCompletedFilesAreDeleted() throws Exception {
    Path in = Files.createDirectories(root.resolve("inbox"));
    String plain = writeExports(in);

    Path lake = root.resolve("lake");
    cluster
        .connect()
        .configureConnector(
            "lake", FileSourceConfigs.sink(lake, "files.orders,files.rows,files.rejected", false));
    cluster
        .connect()
        .configureConnector(
            "orders-files",
            FileSourceConfigs.source(
                in,
                "ndjson",
                "files.orders",
                "file.pattern",
                "*.ndjson*",
                "rejections.topic",
                "files.rejected",
                "file.completed.policy",
                "delete"));
    cluster
        .connect()
        .configureConnector(
            "catalog-files",
            FileSourceConfigs.source(
                in, "csv", "files.rows", "file.pattern", "*.csv", "tasks.max", "1"));
    cluster.awaitRunning("orders-files", 2, Duration.ofMinutes(1));

    try (DuckDbLake duck = new DuckDbLake(lake)) {
      awaitRows(duck, "files.orders", 10_000);
      awaitRows(duck, "files.rows", 3000);
      awaitRows(duck, "files.rejected", 6);
      assertThat(duck.count("select count(distinct id) from ${table:files.orders}"))
          .isEqualTo(10_000);
      assertThat(duck.count("select min(id) from ${table:files.orders}")).isZero();
      assertThat(duck.count("select max(id) from ${table:files.orders}")).isEqualTo(9_999);
      assertThat(duck.query("select title, qty from ${table:files.rows} where sku = 'sku-42'"))
          .containsExactly(Map.of("title", "Title 42, \"deluxe\"\r\nsecond line", "qty", "0"));
      assertThat(duck.count("select count(distinct sku) from ${table:files.rows}")).isEqualTo(3000);
      assertThat(
              duck.query(
                  "select file, line::BIGINT line, byte_offset::BIGINT byte_offset from ${table:files.rejected} order by line limit 1"))
          .containsExactly(
              Map.of(
                  "file",
                  "orders-1.ndjson",
                  "line",
                  1001L,
                  "byte_offset",
                  (long) plain.indexOf("{\"id\": broken line 999")));
    }
    Await.until(
        LAND,
        "the completed ndjson files to be deleted",
        () ->
            !Files.exists(in.resolve("orders-1.ndjson"))
                && !Files.exists(in.resolve("orders-2.ndjson.gz")));
    assertThat(in.resolve("catalog.csv")).as("kept (the default policy)").exists();
    long endOffsets =
        cluster.kafka().endOffset(new TopicPartition("files.orders", 0))
            + cluster.kafka().endOffset(new TopicPartition("files.orders", 1));
    assertThat(endOffsets)
        .as("offsets beyond the 10,000 records hold transaction markers: written transactionally")
        .isGreaterThan(10_000);
    try (var left = Files.list(in)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("catalog.csv");
    }
  }

  @Test
  void followedLogsRotatedByRenameAndCopytruncateLandEveryLineOnce() throws Exception {
    Path logs = Files.createDirectories(root.resolve("logs"));
    Path log = logs.resolve("app.log");
    Path lake = root.resolve("log-lake");
    cluster
        .connect()
        .configureConnector("log-lake", FileSourceConfigs.sink(lake, "files.logs", false));
    cluster
        .connect()
        .configureConnector(
            "app-logs",
            FileSourceConfigs.source(
                logs, "ndjson", "files.logs", "file.tail", "true", "file.pattern", "app.log*"));
    cluster.awaitRunning("app-logs", 2, Duration.ofMinutes(1));
    long id = 0;
    for (int round = 0; round < 3; round++) {
      id = write(log, id, 1500);
      Files.move(log, logs.resolve("app.log." + (2 * round + 1))); // create mode
      id = write(logs.resolve("app.log." + (2 * round + 1)), id, 100); // the writer's old handle
      id = write(log, id, 1500);
      Files.copy(log, logs.resolve("app.log." + (2 * round + 2))); // copytruncate mode
      try (FileChannel c = FileChannel.open(log, StandardOpenOption.WRITE)) {
        c.truncate(0);
      }
    }
    id = write(log, id, 500);
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      awaitRows(duck, "files.logs", id);
      assertThat(duck.count("select count(distinct id) from ${table:files.logs}")).isEqualTo(id);
      assertThat(duck.count("select max(id) from ${table:files.logs}")).isEqualTo(id - 1);
    }
  }

  @Test
  void lineProtocolFromAFileLandsInTheTableOfTheSameMeasurementSentOverHttp() throws Exception {
    Path metrics = Files.createDirectories(root.resolve("telegraf"));
    Files.writeString(
        metrics.resolve("metrics.out"),
        "cpu,host=file-a usage=0.5,cores=8i 1767225600000000000\n"
            + "cpu,host=file-b usage=1.5,cores=4i 1767225601000000000\n");
    HttpIngest http = new HttpIngest(cluster, Map.of("topic.prefix", "lp."));
    assertThat(
            http.post(
                    "/api/v2/write?bucket=b&precision=ns",
                    "cpu,host=http-a usage=2.5,cores=2i 1767225602000000000\n")
                .statusCode())
        .isEqualTo(204);
    Path lake = root.resolve("lp-lake");
    cluster.connect().configureConnector("lp-lake", FileSourceConfigs.sink(lake, "lp.cpu", true));
    cluster
        .connect()
        .configureConnector(
            "telegraf-files",
            FileSourceConfigs.source(
                metrics,
                "lineprotocol",
                "",
                "topic.prefix",
                "lp.",
                "value.converter.schemas.enable",
                "true",
                "tasks.max",
                "1"));
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      awaitRows(duck, "lp.cpu", 3);
      assertThat(
              duck.query(
                  "select host, usage, cores, epoch_ms(time) t from ${table:lp.cpu} order by host"))
          .containsExactly(
              Map.of("host", "file-a", "usage", 0.5, "cores", 8L, "t", 1_767_225_600_000L),
              Map.of("host", "file-b", "usage", 1.5, "cores", 4L, "t", 1_767_225_601_000L),
              Map.of("host", "http-a", "usage", 2.5, "cores", 2L, "t", 1_767_225_602_000L));
    }
  }

  /**
   * Writes 6,000 orders with 6 broken lines (plain), 4,000 (gzip) and 3,000 CSV rows with quoted
   * newlines; returns the plain file's text.
   */
  private static String writeExports(Path in) throws IOException {
    StringBuilder plain = new StringBuilder();
    for (long id = 0; id < 6000; id++) {
      plain.append(FileSourceConfigs.order(id));
      if (id % 1000 == 999) {
        plain.append("{\"id\": broken line ").append(id).append("\n");
      }
    }
    Files.writeString(in.resolve("orders-1.ndjson"), plain);
    try (OutputStream out =
        new GZIPOutputStream(Files.newOutputStream(in.resolve("orders-2.ndjson.gz")))) {
      for (long id = 6000; id < 10_000; id++) {
        out.write(FileSourceConfigs.order(id).getBytes(StandardCharsets.UTF_8));
      }
    }
    StringBuilder csv = new StringBuilder("\uFEFFsku,title,qty\r\n");
    for (int i = 0; i < 3000; i++) {
      csv.append("sku-")
          .append(i)
          .append(",\"Title ")
          .append(i)
          .append(", \"\"deluxe\"\"\r\nsecond line\",")
          .append(i % 7)
          .append("\r\n");
    }
    Files.writeString(in.resolve("catalog.csv"), csv);
    return plain.toString();
  }

  private static long write(Path file, long from, int count) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (long id = from; id < from + count; id++) {
      sb.append(FileSourceConfigs.order(id));
    }
    Files.writeString(file, sb, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    return from + count;
  }

  private static void awaitRows(DuckDbLake duck, String table, long rows) {
    Await.until(
        LAND,
        () -> table + " to hold " + rows + " rows; it has " + safeRows(duck, table),
        () -> LakeAudit.rows(duck, table) >= rows);
    assertThat(LakeAudit.rows(duck, table)).as(table).isEqualTo(rows);
  }

  private static String safeRows(DuckDbLake duck, String table) {
    try {
      return Long.toString(LakeAudit.rows(duck, table));
    } catch (RuntimeException e) {
      return "? (" + e.getMessage() + ")";
    }
  }
}
