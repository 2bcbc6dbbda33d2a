package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's end check: each lake against what its sources were given and what Kafka committed,
 * with DuckDB reading the live files the lake logs list. The records Kafka committed (read
 * read_committed) are written to CSV files that DuckDB joins with the lake, so that hours of rows
 * are compared without holding them in this JVM.
 */
final class SoakAudit {
  /** How often a read of a live lake lists its files again when one was deleted meanwhile. */
  private static final int LIVE_ATTEMPTS = 10;

  private static final Duration LANDING = Duration.ofMinutes(10);
  private static final Duration READ = Duration.ofMinutes(15);

  private final String bootstrap;
  private final Path dir;
  private final List<String> figures = new ArrayList<>();

  SoakAudit(String bootstrap, Path dir) throws IOException {
    this.bootstrap = bootstrap;
    this.dir = Files.createDirectories(dir);
  }

  /** One line per lake checked, with what it counted. */
  List<String> figures() {
    return figures;
  }

  /**
   * The expiring lake, checked first, right after the load stopped: no record twice, none that
   * Kafka did not commit, and every committed record of a minute that cannot have expired yet (it
   * ended less than the retention before the lake was read) is there. Records of expired minutes
   * are the only ones allowed to be missing, and the logs must show that minutes did expire.
   */
  void expiring(Path lake, String topic, int partitions) throws IOException {
    Path committed = committed(topic, "expiring").file();
    long[] required = new long[1];
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      Await.until(
          Duration.ofMillis(SoakConnectors.RETENTION_MS),
          () -> "every committed record of a minute not yet expired in " + lake,
          new Throttled(
              Duration.ofSeconds(2),
              () -> {
                // Read before the lake: a minute the lake still had to keep then is required.
                long keptAfter = System.currentTimeMillis() - SoakConnectors.RETENTION_MS;
                Map<String, Object> row =
                    duck.queryLive(
                            "select count(*) filter (where l.o is null) missing, count(*) required"
                                + " from "
                                + csv(committed)
                                + " c left join (select __partition p, __offset o from ${table:"
                                + topic
                                + "}) l on c.p = l.p and c.o = l.o where (c.ts // "
                                + SoakConnectors.MINUTE_MS
                                + " + 1) * "
                                + SoakConnectors.MINUTE_MS
                                + " > "
                                + keptAfter,
                            LIVE_ATTEMPTS)
                        .get(0);
                required[0] = number(row, "required");
                return number(row, "missing") == 0;
              }));
      assertNothingTwiceNorAborted(duck, topic, committed, "expiring lake");
      long expired = logEntries(lake, topic, partitions, "expire");
      assertThat(expired).as("expire entries in the expiring lake's logs").isPositive();
      assertThat(required[0]).as("records of minutes not expired yet (checked)").isPositive();
      figures.add(
          String.format(
              "expiring lake (%s): %,d rows live; all %,d committed records of minutes younger"
                  + " than the retention present, none twice, none aborted; %,d expire and %,d"
                  + " merge entries",
              topic,
              LakeAudit.rows(duck, topic),
              required[0],
              expired,
              logEntries(lake, topic, partitions, "compact-commit")));
    }
  }

  /**
   * An HTTP ingest lake: exactly the records Kafka committed, each once, and every row that got 204
   * in it; a row is there twice only when its request was sent twice (a retry after an answer that
   * was lost or a 503, whose first attempt may have landed too).
   *
   * @param client SQL of the client number from the table's {@code client} column
   * @param request SQL of the request number from the table's {@code req} column
   */
  void ingest(
      String what,
      Path lake,
      String topic,
      int partitions,
      RetryingIngestClient clients,
      String client,
      String request)
      throws IOException {
    Committed committed = committed(topic, topic);
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      awaitRows(duck, lake, topic, committed.count());
      assertNothingTwiceNorAborted(duck, topic, committed.file(), what);
      assertThat(
              duck.count(
                  "select count(*) from "
                      + csv(committed.file())
                      + " c anti join (select __partition p, __offset o from ${table:"
                      + topic
                      + "}) l on c.p = l.p and c.o = l.o"))
          .as(what + ": committed records missing from the lake")
          .isZero();
      long twice = assertAcknowledgedRows(duck, what, topic, clients, client, request);
      long requests = 0;
      for (int c = 0; c < clients.clients(); c++) {
        requests += clients.acknowledgedRequests(c);
      }
      figures.add(
          String.format(
              "%s (%s): %,d rows acknowledged in %,d requests (%,d retries); lake %,d rows ="
                  + " the %,d committed records exactly; %,d rows twice, all of retried requests;"
                  + " %,d merge entries",
              what,
              topic,
              clients.acknowledgedRows(),
              requests,
              clients.retries(),
              LakeAudit.rows(duck, topic),
              committed.count(),
              twice,
              logEntries(lake, topic, partitions, "compact-commit")));
    }
  }

  /**
   * Every acknowledged row in the lake, rows of no other request, and copies only of retried
   * requests.
   *
   * @return rows in the lake more than once
   */
  private static long assertAcknowledgedRows(
      DuckDbLake duck,
      String what,
      String topic,
      RetryingIngestClient clients,
      String client,
      String request) {
    long[] groups = new long[clients.clients()];
    long twice = 0;
    for (Map<String, Object> g :
        duck.query(
            "select c, r, count(*) n, count(distinct \"row\") d from (select "
                + client
                + " c, "
                + request
                + " r, \"row\" from ${table:"
                + topic
                + "}) group by c, r")) {
      int c = (int) number(g, "c");
      long r = number(g, "r");
      String at = what + ": client " + c + " request " + r;
      assertThat(c).as(at).isBetween(0, clients.clients() - 1);
      assertThat(r).as(at + " got no 204").isLessThan(clients.acknowledgedRequests(c));
      assertThat(number(g, "d")).as(at + ": distinct rows").isEqualTo(clients.rowsPerRequest());
      if (number(g, "n") > number(g, "d")) {
        assertThat(clients.retried(c, r)).as(at + " landed twice but was sent once").isTrue();
        twice += number(g, "n") - number(g, "d");
      }
      groups[c]++;
    }
    for (int c = 0; c < clients.clients(); c++) {
      assertThat(groups[c])
          .as(what + ": requests of client " + c + " in the lake (each got 204)")
          .isEqualTo(clients.acknowledgedRequests(c));
    }
    return twice;
  }

  /** The file source's lake: ids 0 to {@code lines} − 1, each once. */
  void files(Path lake, String topic, int partitions, long lines) throws IOException {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      awaitRows(duck, lake, topic, lines);
      String table = "${table:" + topic + "}";
      Map<String, Object> row =
          duck.query(
                  "select count(*) n, count(distinct id) d, min(id) lo, max(id) hi from " + table)
              .get(0);
      assertThat(number(row, "n")).as("file lines in the lake").isEqualTo(lines);
      assertThat(number(row, "d")).as("distinct file lines in the lake").isEqualTo(lines);
      assertThat(number(row, "lo")).isZero();
      assertThat(number(row, "hi")).isEqualTo(lines - 1);
      figures.add(
          String.format(
              "files (%s): %,d lines in %,d files, each once in the lake; %,d merge entries",
              topic,
              lines,
              lines / SoakLoad.FILE_LINES,
              logEntries(lake, topic, partitions, "compact-commit")));
    }
  }

  /** The poll source's lake: every record of the API once in each endpoint's table. */
  void poll(Path lake, List<String> topics, List<Long> ids) throws IOException {
    Map<Long, Long> once = PollLake.once(ids);
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      for (String topic : topics) {
        Await.until(
            LANDING,
            () ->
                "the API's "
                    + ids.size()
                    + " records once in "
                    + topic
                    + ", the lake has "
                    + PollLake.idCounts(duck, topic).size(),
            new Throttled(
                Duration.ofSeconds(5), () -> PollLake.idCounts(duck, topic).equals(once)));
        figures.add(
            String.format(
                "poll (%s): all %,d records of the API once; %,d merge entries",
                topic, ids.size(), logEntries(lake, topic, 1, "compact-commit")));
      }
    }
  }

  private static void awaitRows(DuckDbLake duck, Path lake, String topic, long expected) {
    Await.until(
        LANDING,
        () -> expected + " rows in " + topic + " of " + lake + ", has " + rowsOrNone(duck, topic),
        new Throttled(Duration.ofSeconds(5), () -> LakeAudit.rows(duck, topic) >= expected));
  }

  private static long rowsOrNone(DuckDbLake duck, String topic) {
    try {
      return LakeAudit.rows(duck, topic);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** No (partition, offset) twice in the lake, and none that Kafka did not commit. */
  private static void assertNothingTwiceNorAborted(
      DuckDbLake duck, String topic, Path committed, String what) {
    String table = "${table:" + topic + "}";
    assertThat(
            liveCount(
                duck, "select count(*) - count(distinct (__partition, __offset)) from " + table))
        .as(what + ": records landed twice")
        .isZero();
    assertThat(
            liveCount(
                duck,
                "select count(*) from (select __partition p, __offset o from "
                    + table
                    + ") l anti join "
                    + csv(committed)
                    + " c on l.p = c.p and l.o = c.o"))
        .as(what + ": rows that are no committed record (of an aborted transaction)")
        .isZero();
  }

  /**
   * A count over a lake whose sink still runs: the expiring lake is read right after the load,
   * while retention goes on expiring and deleting files, so a file listed live may be gone when
   * read.
   */
  private static long liveCount(DuckDbLake duck, String sql) {
    Object value = duck.queryLive(sql, LIVE_ATTEMPTS).get(0).values().iterator().next();
    return ((Number) value).longValue();
  }

  private record Committed(Path file, long count) {}

  /** Writes (partition, offset, timestamp) of every record of {@code topic} Kafka committed. */
  private Committed committed(String topic, String name) throws IOException {
    Path file = dir.resolve(name + "-committed.csv");
    AtomicLong count = new AtomicLong();
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      IngestLakeAudit.readCommitted(
          bootstrap,
          topic,
          READ,
          r -> {
            try {
              out.write(r.partition() + "," + r.offset() + "," + r.timestamp() + "\n");
              count.incrementAndGet();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }
    return new Committed(file, count.get());
  }

  private static String csv(Path file) {
    return "read_csv('"
        + file
        + "', header=false, columns={'p':'INTEGER','o':'BIGINT','ts':'BIGINT'})";
  }

  private static long number(Map<String, Object> row, String column) {
    return ((Number) row.get(column)).longValue();
  }

  /**
   * The topic's TP logs, once everything landed: no intent without its commit or abort, no entry of
   * an epoch older than one before it.
   */
  static void assertLogsSound(Path lake, String topic, int partitions) throws IOException {
    for (int p = 0; p < partitions; p++) {
      List<LakeLogAudit.Entry> entries = LakeLogAudit.entries(lake, topic, p);
      LakeLogAudit.assertNoUnresolvedIntent(entries);
      LakeLogAudit.assertEpochsNeverGoBack(entries);
    }
  }

  /** Entries of {@code kind} ({@code expire}, {@code compact-commit}, ...) in the topic's logs. */
  static long logEntries(Path lake, String topic, int partitions, String kind) throws IOException {
    long count = 0;
    for (int p = 0; p < partitions; p++) {
      count +=
          LakeLogAudit.entries(lake, topic, p).stream().filter(e -> e.kind().equals(kind)).count();
    }
    return count;
  }
}
