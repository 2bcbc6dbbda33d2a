package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.pollapi.FixtureOAuth;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import io.skippr.connect.testkit.pollapi.PollFixtureApi.Served;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP poll source under SIGKILL, in Connect workers that run as separate processes (with
 * {@code exactly.once.source.support=enabled}) next to a broker process: the API wants OAuth2 with
 * strictly rotated refresh tokens. A worker is killed while a page request is in flight (one
 * transaction per page), and again while a transaction spanning several pages is open (its records
 * are in the topic, uncommitted); each time a new worker takes over. Then the offsets topic is
 * deleted while no worker runs: the next worker resumes from the state store's mirror. The lake
 * (read_committed) holds every record exactly once, no refresh token was used twice, no refresh
 * token's bytes are in the state directory or the logs, and {@code skippr audit} finds the lake,
 * Kafka and the sink's group in agreement (aborted transactions are no gap).
 */
class HttpPollChaosIT {
  private static final String OFFSETS_TOPIC = "skippr-local-offsets";
  private static final String ORDERS = "chaos.orders";
  private static final String INVOICES = "chaos.invoices";
  private static final Duration LANDING = Duration.ofMinutes(3);
  private static final Duration READY = Duration.ofMinutes(2);

  @TempDir Path root;
  private final List<CliProcess> processes = new ArrayList<>();
  private PollFixtureApi api;

  @AfterEach
  void stopAll() throws InterruptedException {
    CliProcess.stopAll(processes);
    if (api != null) {
      api.close();
    }
  }

  @Test
  void killedWorkersAndALostOffsetsTopicLoseAndRepeatNothing() throws Exception {
    long start = System.nanoTime();
    api = PollFixtureApi.start(7);
    FixtureOAuth oauth = api.requireOAuth("chaos-client", "chaos-secret", "rt-chaos-first");
    oauth.accessLifetimeSeconds(3);
    api.pageDelayMillis(20);
    Map<String, String> env = Map.of("SKIPPR_STATE_KEY", stateKey());
    ChaosStack stack = ChaosStack.start(root, processes);
    stack.createTopic(ORDERS, 1);
    stack.createTopic(INVOICES, 1);
    CliProcess worker = stack.awaitReady(stack.startWorker("worker-0", 0, env), 0);
    Path state = root.resolve("state");
    Path lake = root.resolve("lake");
    stack.putConnector(0, "chaos-lake", PollLake.sinkConfig(lake, state, ORDERS + "," + INVOICES));
    api.add(400);
    AtomicInteger pages = new AtomicInteger();
    PollFixtureApi.Hold[] hold = new PollFixtureApi.Hold[1];
    api.afterEachPage(
        served -> {
          if (pages.incrementAndGet() == 12) {
            hold[0] = api.holdNext();
          }
        });
    stack.putConnector(0, "chaos-poll", PollLake.pollConfig(api, "chaos.", state, oauth(api)));

    // Kill 1: a page request is in flight.
    Await.until(READY, "a request held mid-pass", () -> hold[0] != null);
    assertThat(hold[0].awaitHeld(2, TimeUnit.MINUTES)).isTrue();
    // Not while the worker renews its token: a rotated token it got but did not store is lost.
    Await.until(READY, "a freshly renewed access token", () -> freshToken(oauth));
    worker.kill();
    hold[0].release();
    report(start, "kill 1 while a request was in flight, after " + pages.get() + " pages");
    api.add(200);
    worker = stack.awaitReady(stack.startWorker("worker-1", 0), 0);

    // Kill 2: transactions now span 5 s of pages, so the kill comes while one is open (its
    // records are in the topic, uncommitted); the access token is fresh, so not mid-renewal.
    Map<String, String> interval = new HashMap<>(oauth(api));
    interval.put("transaction.boundary", "interval");
    interval.put("transaction.boundary.interval.ms", "5000");
    interval.put("http.params", "limit=10&phase=interval");
    AtomicInteger intervalPages = new AtomicInteger();
    CountDownLatch served = new CountDownLatch(1);
    api.afterEachPage(
        s -> {
          if ("interval".equals(s.query().get("phase"))
              && intervalPages.incrementAndGet() >= 8
              && freshToken(oauth)) {
            served.countDown();
          }
        });
    stack.putConnector(0, "chaos-poll", PollLake.pollConfig(api, "chaos.", state, interval));
    assertThat(served.await(2, TimeUnit.MINUTES)).isTrue();
    worker.kill();
    report(start, "kill 2 in an open transaction, " + intervalPages.get() + " pages into it");
    worker = stack.awaitReady(stack.startWorker("worker-2", 0), 0);
    awaitExactlyOnce(lake);
    report(start, "every record once after 2 kills");

    // The offsets topic is gone: the next worker resumes from the state store.
    worker.terminate(Duration.ofMinutes(1));
    deleteTopic(stack.bootstrapServers(), OFFSETS_TOPIC);
    List<Long> before = api.items().ids();
    String resumeCursor = api.items().updatedAt(before.get(before.size() - 1));
    int servedBefore = api.served().size();
    api.add(30);
    worker = stack.awaitReady(stack.startWorker("worker-3", 0), 0);
    awaitExactlyOnce(lake);
    report(start, "every record once after the offsets topic was deleted");

    List<Served> after = api.served().subList(servedBefore, api.served().size());
    assertThat(after.stream().filter(s -> s.path().equals("/token/items")).findFirst())
        .hasValueSatisfying(s -> assertThat(s.query()).containsEntry("since", resumeCursor));
    assertThat(after.stream().filter(s -> s.path().equals("/link/items")).findFirst())
        .hasValueSatisfying(s -> assertThat(s.query()).containsEntry("since", resumeCursor));
    assertThat(worker.output()).contains("Kafka has no offset; offset from the state store");
    assertThat(oauth.rejectedRefreshes()).as("refresh tokens used twice").isZero();
    assertThat(oauth.refreshes()).isGreaterThanOrEqualTo(3);
    assertNoTokenBytes(state, oauth.issuedRefreshTokens());
    assertNoTokenBytes(
        root.resolve("logs"),
        oauth.issuedRefreshTokens().subList(1, oauth.issuedRefreshTokens().size()));
    report(start, "refreshes " + oauth.refreshes() + ", pages " + api.pagesServed());
    AuditCli.assertClean(
        root.resolve("logs"), "chaos-lake", stack.restUrl(0), stack.bootstrapServers(), 2);
  }

  /** Issued less than half its lifetime ago: the next renewal is at least 0.75 s away. */
  private static boolean freshToken(FixtureOAuth oauth) {
    return Duration.between(oauth.lastIssued(), Instant.now()).toMillis() < 1500;
  }

  private static Map<String, String> oauth(PollFixtureApi api) {
    return Map.of(
        "auth.type", "oauth2",
        "auth.oauth2.token.url", api.url("/oauth/token"),
        "auth.oauth2.client.id", "chaos-client",
        "auth.oauth2.client.secret", "chaos-secret",
        "auth.oauth2.grant", "refresh_token",
        "auth.oauth2.refresh.token", "rt-chaos-first",
        "poll.interval.ms", "300");
  }

  private void awaitExactlyOnce(Path lake) {
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      Await.until(
          LANDING,
          () ->
              "every record once; the API has "
                  + api.items().size()
                  + ", the lake "
                  + PollLake.idCounts(duck, ORDERS).size()
                  + " orders, "
                  + PollLake.idCounts(duck, INVOICES).size()
                  + " invoices",
          () -> {
            Map<Long, Long> expected = PollLake.once(api.items().ids());
            return PollLake.idCounts(duck, ORDERS).equals(expected)
                && PollLake.idCounts(duck, INVOICES).equals(expected);
          });
    }
  }

  private static void deleteTopic(String bootstrap, String topic) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.deleteTopics(List.of(topic)).all().get(1, TimeUnit.MINUTES);
      Await.until(
          Duration.ofMinutes(1),
          topic + " deleted",
          () -> {
            try {
              return !admin.listTopics().names().get().contains(topic);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
    }
  }

  private static void assertNoTokenBytes(Path dir, List<String> tokens) throws Exception {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      byte[] content = Files.readAllBytes(file);
      for (String token : tokens) {
        assertThat(indexOf(content, token.getBytes(StandardCharsets.UTF_8)))
            .as("refresh token bytes in " + root(dir, file))
            .isNegative();
      }
    }
  }

  private static String root(Path dir, Path file) {
    return dir.relativize(file).toString();
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static String stateKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  private static void report(long startNanos, String what) {
    System.out.printf("poll chaos: %5.1f s %s%n", (System.nanoTime() - startNanos) / 1e9, what);
  }
}
