package io.skippr.connect.source.poll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.source.poll.FixtureConfigs.Listing;
import io.skippr.connect.source.poll.auth.RefreshTokens;
import io.skippr.connect.source.poll.config.PollAuthConfig;
import io.skippr.connect.source.poll.metrics.PollMetrics;
import io.skippr.connect.state.api.Lease;
import io.skippr.connect.state.api.Leases;
import io.skippr.connect.state.api.SecretCodec;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.testkit.pollapi.FixtureOAuth;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import io.skippr.connect.testkit.pollapi.PollFixtureApi.Served;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OAuth2 against the fixture's token endpoint, which rotates refresh tokens strictly (a used one is
 * refused): access tokens are renewed before they expire and once after a 401; each rotated refresh
 * token is in the state store (encrypted) before the access token that came with it is used, a
 * restart uses the newest one, and no token's bytes are in the state directory or the log.
 */
class OAuth2Test {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String CLIENT = "poll-client";
  private static final String SECRET = "client-secret-123";
  private static final String FIRST_REFRESH = "rt-first-run-0001";

  @TempDir Path dir;
  private PollFixtureApi api;
  private FixtureOAuth oauth;
  private PollHarness harness;
  private final Map<String, String> env =
      Map.of(SecretCodec.ENV_STATE_KEY, PollHarness.newStateKey());

  @BeforeEach
  void startApi() throws Exception {
    api = PollFixtureApi.start(7);
    oauth = api.requireOAuth(CLIENT, SECRET, FIRST_REFRESH);
  }

  @AfterEach
  void stop() {
    if (harness != null) {
      harness.close();
    }
    api.close();
  }

  private Map<String, String> config(String grant) {
    Map<String, String> c = new HashMap<>(FixtureConfigs.of(api, Listing.TOKEN));
    c.put("auth.type", "oauth2");
    c.put("auth.oauth2.token.url", api.url("/oauth/token"));
    c.put("auth.oauth2.client.id", CLIENT);
    c.put("auth.oauth2.client.secret", SECRET);
    c.put("auth.oauth2.grant", grant);
    if (grant.equals("refresh_token")) {
      c.put("auth.oauth2.refresh.token", FIRST_REFRESH);
    }
    return c;
  }

  @Test
  void clientCredentialTokensAreRenewedBeforeTheyExpire() throws Exception {
    oauth.accessLifetimeSeconds(3); // renewed 0.75 s early: room for a slow request
    api.add(12);
    Map<String, String> config = config("client_credentials");
    config.put("auth.oauth2.client.auth", "body");
    config.put("state.mirror", "off");
    harness = new PollHarness(dir, env, config).start();
    harness.runUntil(TIMEOUT, "3 access tokens", () -> oauth.accessTokensIssued() >= 3);

    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
    assertThat(api.served()).extracting(Served::status).doesNotContain(401);
    assertThat(harness.task.metrics().count(PollMetrics.TOKEN_REFRESHES, "default"))
        .isEqualTo(oauth.accessTokensIssued());
    assertThat(dir.resolve("data"))
        .as("without a mirror, client credentials need no state store")
        .doesNotExist();
  }

  /** Starts a client credentials task whose token endpoint first answers {@code body}. */
  private void startWithTokenAnswer(int status, String body) {
    oauth.answerNext(status, body);
    api.add(3);
    Map<String, String> config = config("client_credentials");
    config.put("state.mirror", "off");
    harness = new PollHarness(dir, env, config).start();
  }

  @Test
  void anAccessTokenAHeaderCannotCarryFailsTheTaskWithoutShowingIt() throws Exception {
    // An access token with a line break passed, and building the request's Authorization header
    // threw an IllegalArgumentException out of the poll.
    startWithTokenAnswer(
        200, "{\"access_token\":\"at-secret\\r\\nX-Evil: 1\",\"expires_in\":3600}");
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("answered an access_token with characters other than visible ASCII")
        .hasMessageNotContaining("at-secret");
    assertThat(api.served()).isEmpty();
  }

  @Test
  void anErrorDescriptionCannotForgeLogLines() throws Exception {
    // The token endpoint's error and description went into the failure (and the log) as they
    // were, line breaks and all.
    startWithTokenAnswer(
        400,
        "{\"error\":\"invalid_request\",\"error_description\":\"no\\r\\n"
            + "12:00:00.000 INFO  [main] Forged - all is well\\u001b[0m\"}");
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining(
            ": invalid_request (no 12:00:00.000 INFO [main] Forged - all is well [0m)")
        .hasMessageNotContaining("\n")
        .hasMessageNotContaining("\u001b");
  }

  @Test
  void a401GetsOneNewAccessTokenAndTheRequestIsRetried() throws Exception {
    api.add(12);
    harness = new PollHarness(dir, env, config("client_credentials")).start();
    harness.runUntil(TIMEOUT, "12 records", () -> harness.landed.size() >= 12);
    oauth.revokeAccessTokens();
    api.add(3);
    harness.runUntil(TIMEOUT, "15 records", () -> harness.landed.size() >= 15);

    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
    assertThat(api.served().stream().filter(s -> s.status() == 401).count()).isEqualTo(1);
    assertThat(oauth.accessTokensIssued()).isEqualTo(2);
  }

  @Test
  void rotatedRefreshTokensAreStoredBeforeUseAndARestartUsesTheNewest() throws Exception {
    oauth.accessLifetimeSeconds(1);
    List<String> problems = new CopyOnWriteArrayList<>();
    List<Long> ids = new ArrayList<>(api.add(30));
    try (LogCapture log = new LogCapture()) {
      harness = new PollHarness(dir, env, config("refresh_token")).start();
      try (StateStore store = harness.openStore()) {
        RefreshTokens stored = refreshRow(store);
        api.beforeEachData(
            authorization -> {
              String issued = oauth.refreshTokenIssuedWith(authorization.substring(7));
              String inStore = stored.current();
              if (!inStore.equals(issued)) {
                problems.add("used an access token before storing its refresh token");
              }
            });
        harness.runUntil(TIMEOUT, "3 rotations", () -> oauth.refreshes() >= 3);
        harness.restart();
        ids.addAll(api.add(10));
        harness.runUntil(TIMEOUT, "40 records", () -> harness.landed.size() >= 40);
        harness.runUntil(TIMEOUT, "2 more rotations", () -> oauth.refreshes() >= 5);
        assertThat(stored.current()).isEqualTo(oauth.validRefreshToken());
      }
      harness.stop();
      assertThat(problems).isEmpty();
      assertThat(oauth.rejectedRefreshes()).as("refresh tokens used twice").isZero();
      assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(ids);
      assertThat(log.text()).contains("the rotated refresh token is stored in");
      for (String token : oauth.issuedRefreshTokens()) {
        assertThat(log.text()).doesNotContain(token);
      }
    }
    List<Path> stateFiles = files(dir.resolve("data/state"));
    assertThat(stateFiles).isNotEmpty();
    for (String token : oauth.issuedRefreshTokens()) {
      byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
      for (Path file : stateFiles) {
        assertThat(contains(Files.readAllBytes(file), bytes))
            .as("refresh token bytes in " + file.getFileName())
            .isFalse();
      }
    }
  }

  @Test
  void twoTasksOfOneAuthorizationNeverPresentTheSameRefreshToken() throws Exception {
    oauth.accessLifetimeSeconds(1);
    api.add(20);
    Map<String, String> second = config("refresh_token");
    second.put("topic", "orders2");
    harness = new PollHarness(dir, env, config("refresh_token")).start();
    try (PollHarness other = new PollHarness(dir, env, second).start()) {
      long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
      while (System.nanoTime() < until) {
        harness.task.poll();
        other.task.poll();
      }
      other.stop();
    }
    assertThat(oauth.refreshes()).isGreaterThanOrEqualTo(3);
    assertThat(oauth.rejectedRefreshes()).isZero();
  }

  @Test
  void aRenewalWaitsWhileAnotherWorkerHoldsTheRefreshLease() throws Exception {
    api.add(5);
    harness = new PollHarness(dir, env, config("refresh_token"));
    try (StateStore store = harness.openStore()) {
      Leases otherWorker =
          new Leases(store, "other-worker", Duration.ofMinutes(5), System::nanoTime);
      Lease held = otherWorker.tryAcquire(refreshRow(store).leaseKey()).orElseThrow();
      harness.start();
      long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
      while (System.nanoTime() < until) {
        assertThat(harness.task.poll()).isNull();
      }
      assertThat(oauth.refreshes()).isZero();
      otherWorker.release(held);
      harness.runUntil(TIMEOUT, "5 records", () -> harness.landed.size() >= 5);
    }
    assertThat(oauth.refreshes()).isEqualTo(1);
  }

  @Test
  void aNewlyConfiguredRefreshTokenStartsOverFromIt() throws Exception {
    api.add(5);
    harness = new PollHarness(dir, env, config("refresh_token")).start();
    harness.runUntil(TIMEOUT, "5 records", () -> harness.landed.size() >= 5);
    harness.stop();

    oauth.reauthorize("rt-after-reauthorization");
    harness.props.put("auth.oauth2.refresh.token", "rt-after-reauthorization");
    api.add(3);
    harness.start();
    harness.runUntil(TIMEOUT, "8 records", () -> harness.landed.size() >= 8);
    assertThat(oauth.rejectedRefreshes()).isZero();
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
  }

  @Test
  void aRefusedRefreshTokenFailsTheTaskWithWhatToDo() throws Exception {
    api.add(5);
    Map<String, String> config = config("refresh_token");
    config.put("auth.oauth2.refresh.token", "rt-revoked");
    harness = new PollHarness(dir, env, config).start();
    assertThatThrownBy(() -> harness.page(TIMEOUT))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("refused the refresh token (invalid_grant)")
        .hasMessageContaining("set auth.oauth2.refresh.token")
        .hasMessageNotContaining("rt-revoked");
    assertThat(oauth.rejectedRefreshes()).isEqualTo(3);
    assertThat(api.served()).isEmpty();
  }

  @Test
  void theRefreshTokenGrantRefusesToStartWithoutAStateKey() {
    harness = new PollHarness(dir, Map.of(), config("refresh_token"));
    assertThatThrownBy(harness::start)
        .hasMessageContaining("auth.oauth2.grant")
        .hasMessageContaining(SecretCodec.ENV_STATE_KEY);
  }

  private RefreshTokens refreshRow(StateStore store) {
    PollAuthConfig.OAuth2 settings =
        new PollAuthConfig.OAuth2(
            api.url("/oauth/token"),
            CLIENT,
            SECRET,
            "",
            PollAuthConfig.Grant.REFRESH_TOKEN,
            FIRST_REFRESH,
            PollAuthConfig.ClientAuth.BASIC);
    return new RefreshTokens(
        store, StateScope.ofPipeline("poll-test"), settings, Duration.ofSeconds(30));
  }

  private static List<Path> files(Path root) throws Exception {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
