package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP poll source in a real Connect worker with exactly-once source support, into the lake
 * sink (read_committed), read back with DuckDB: two endpoints over two tasks, through 429 storms
 * with Retry-After, 5xx and records added while a pass runs; a restart of the tasks while a request
 * is in flight; offsets set through the REST API (KIP-875) are where the connector resumes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HttpPollLakeIT {
  private static final String CONNECTOR = "poll";
  private static final String ORDERS = "poll.orders";
  private static final String INVOICES = "poll.invoices";
  private static final Duration LANDING = Duration.ofMinutes(2);

  @TempDir static Path root;
  private static ConnectCluster cluster;
  private static PollFixtureApi api;
  private static DuckDbLake duck;
  private static final AtomicInteger addDuringNextPages = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    api = PollFixtureApi.start(7);
    api.afterEachPage(
        served -> {
          if (addDuringNextPages.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            api.add(3);
          }
        });
    cluster =
        ConnectCluster.start("http-poll-it", 1, Map.of("exactly.once.source.support", "enabled"));
    cluster.createTopic(ORDERS, 1);
    cluster.createTopic(INVOICES, 1);
    Path state = root.resolve("state");
    cluster
        .connect()
        .configureConnector(
            "lake", PollLake.sinkConfig(root.resolve("lake"), state, ORDERS + "," + INVOICES));
    api.add(150);
    cluster
        .connect()
        .configureConnector(CONNECTOR, PollLake.pollConfig(api, "poll.", state, Map.of()));
    cluster.awaitRunning(CONNECTOR, 2, Duration.ofSeconds(60));
    cluster.awaitRunning("lake", 1, Duration.ofSeconds(60));
    duck = new DuckDbLake(root.resolve("lake"));
  }

  @AfterAll
  static void stop() {
    if (duck != null) {
      duck.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (api != null) {
      api.close();
    }
  }

  @Test
  @Order(1)
  void everyRecordLandsExactlyOnceThroughStormsErrorsAndAdditions() {
    api.failNext(4, 429, "1");
    api.failNext(2, 503, null);
    addDuringNextPages.set(5);
    api.add(40);
    awaitExactlyOnce();
    assertThat(api.served()).extracting(PollFixtureApi.Served::status).contains(429, 503);
    assertThat(api.items().size()).isEqualTo(150 + 40 + 15);
  }

  @Test
  @Order(2)
  void aRestartOfTheTasksWhileARequestIsInFlightRepeatsNothing() throws Exception {
    awaitExactlyOnce();
    api.add(120); // twelve pages per endpoint: a long pass
    AtomicInteger pages = new AtomicInteger();
    PollFixtureApi.Hold[] hold = new PollFixtureApi.Hold[1];
    api.afterEachPage(
        served -> {
          if (pages.incrementAndGet() == 5) {
            hold[0] = api.holdNext();
          }
        });
    Await.until(Duration.ofSeconds(60), "a request held mid-pass", () -> hold[0] != null);
    assertThat(hold[0].awaitHeld(60, TimeUnit.SECONDS)).isTrue();
    cluster.connect().restartConnectorAndTasks(CONNECTOR, false, true, false);
    hold[0].release();
    cluster.awaitRunning(CONNECTOR, 2, Duration.ofSeconds(60));
    api.add(7);
    awaitExactlyOnce();
  }

  @Test
  @Order(3)
  void offsetsSetThroughTheRestApiAreWhereTheConnectorResumes() throws Exception {
    awaitExactlyOnce();
    List<Long> ids = api.items().ids();
    long from = ids.get(ids.size() - 20); // deliver the last 20 records of orders again
    String cursor = api.items().updatedAt(from);
    cluster.connect().stopConnector(CONNECTOR);
    Await.until(
        Duration.ofSeconds(60),
        "connector stopped",
        () -> "STOPPED".equals(cluster.connect().connectorStatus(CONNECTOR).connector().state()));
    cluster
        .connect()
        .alterSourceConnectorOffset(
            CONNECTOR,
            Map.of("endpoint", "orders"),
            Map.of("cursor", cursor, "tiebreak", Long.toString(from)));
    List<ConnectorOffset> offsets = cluster.connect().connectorOffsets(CONNECTOR).offsets();
    assertThat(offsets)
        .extracting(ConnectorOffset::partition)
        .contains(Map.of("endpoint", "invoices"));
    cluster.connect().resumeConnector(CONNECTOR);
    cluster.awaitRunning(CONNECTOR, 2, Duration.ofSeconds(60));

    Map<Long, Long> expected = new TreeMap<>(PollLake.once(ids));
    ids.stream().filter(id -> id > from).forEach(id -> expected.put(id, 2L));
    Await.until(
        LANDING,
        () ->
            "orders again after "
                + from
                + "; lake has "
                + PollLake.idCounts(duck, ORDERS).size()
                + " ids",
        () -> PollLake.idCounts(duck, ORDERS).equals(expected));
    assertThat(PollLake.idCounts(duck, INVOICES)).isEqualTo(PollLake.once(ids));
  }

  /** Both tables hold exactly the API's records, each once. */
  private static void awaitExactlyOnce() {
    Await.until(
        LANDING,
        () ->
            "every record once; the API has "
                + api.items().size()
                + ", the lake "
                + PollLake.idCounts(duck, ORDERS).size()
                + " orders and "
                + PollLake.idCounts(duck, INVOICES).size()
                + " invoices; connector "
                + cluster.statusOrError(CONNECTOR),
        () -> {
          Map<Long, Long> expected = PollLake.once(api.items().ids());
          return PollLake.idCounts(duck, ORDERS).equals(expected)
              && PollLake.idCounts(duck, INVOICES).equals(expected);
        });
  }
}
