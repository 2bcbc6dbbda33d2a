package io.skippr.connect.source.poll.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.source.poll.config.PollAuthConfig;
import io.skippr.connect.source.poll.config.PollAuthConfig.ClientAuth;
import io.skippr.connect.source.poll.http.Excerpt;
import io.skippr.connect.source.poll.http.HttpExchanger;
import io.skippr.connect.source.poll.http.Redaction;
import io.skippr.connect.source.poll.http.RequestFailure;
import io.skippr.connect.source.poll.http.Response;
import io.skippr.connect.source.poll.http.RetryAfter;
import io.skippr.connect.state.api.Lease;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OAuth2 access tokens (RFC 6749) by the client credentials or the refresh token grant, fetched on
 * first use, again shortly before they expire, and once after a 401. A refresh token the server
 * rotates is stored (encrypted) before the new access token is used. Tokens never reach a log line
 * or an error message.
 */
public final class OAuth2Authenticator implements Authenticator {

  private static final Logger LOG = LoggerFactory.getLogger(OAuth2Authenticator.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MAX_TOKEN_RESPONSE_BYTES = 1 << 20;
  private static final long MAX_MARGIN_SECONDS = 60;

  /** Rejections of an unchanged refresh token tolerated while another task may be storing one. */
  private static final int REJECTIONS_BEFORE_FAILING = 3;

  private static final Duration BUSY_WAIT = Duration.ofMillis(250);

  private final PollAuthConfig.OAuth2 settings;
  private final OAuth2Session session;
  private final RefreshTokens refreshTokens;
  private final HttpExchanger http;
  private final long timeoutMs;
  private final LongSupplier nanoClock;
  private final Runnable onTokenFetched;
  private final URI tokenUri;
  private String lastUsed;

  /**
   * @param scope the pipeline scope (sessions are shared within it)
   * @param refreshTokens where rotated refresh tokens live; null for the client credentials grant
   * @param onTokenFetched counts tokens this authenticator fetched
   */
  public OAuth2Authenticator(
      PollAuthConfig.OAuth2 settings,
      String scope,
      RefreshTokens refreshTokens,
      HttpExchanger http,
      long timeoutMs,
      LongSupplier nanoClock,
      Runnable onTokenFetched) {
    this.settings = settings;
    this.session = OAuth2Session.of(scope, settings);
    this.refreshTokens = refreshTokens;
    this.http = http;
    this.timeoutMs = timeoutMs;
    this.nanoClock = nanoClock;
    this.onTokenFetched = onTokenFetched;
    this.tokenUri = URI.create(settings.tokenUrl());
  }

  @Override
  public void authorize(HttpRequest.Builder request) throws RequestFailure, InterruptedException {
    synchronized (session) {
      if (session.accessToken == null || nanoClock.getAsLong() - session.refreshAtNanos >= 0) {
        fetch();
      }
      lastUsed = session.accessToken;
    }
    request.header("Authorization", "Bearer " + lastUsed);
  }

  @Override
  public boolean canRefresh() {
    return true;
  }

  /** Drops the token that got a 401, unless another task has renewed it since. */
  @Override
  public void invalidate() {
    synchronized (session) {
      if (session.accessToken != null && session.accessToken.equals(lastUsed)) {
        session.accessToken = null;
      }
    }
  }

  private void fetch() throws RequestFailure, InterruptedException {
    if (refreshTokens == null) {
      request(null);
      return;
    }
    Lease lease =
        refreshTokens
            .tryLock()
            .orElseThrow(
                () ->
                    RequestFailure.busy(
                        BUSY_WAIT, "another worker is renewing the shared OAuth2 refresh token"));
    try {
      request(refreshTokens.current());
    } finally {
      refreshTokens.unlock(lease);
    }
  }

  private void request(String used) throws RequestFailure, InterruptedException {
    long requested = nanoClock.getAsLong(); // the token's lifetime starts no earlier than this
    Response response = http.send(tokenRequest(used), timeoutMs, MAX_TOKEN_RESPONSE_BYTES);
    if (!response.ok()) {
      throw failure(response, used);
    }
    TokenAnswer answer = TokenAnswer.parse(response, where());
    String access = answer.accessToken();
    String rotated = answer.refreshToken();
    boolean rotates = used != null && rotated != null && !rotated.equals(used);
    if (rotates) {
      refreshTokens.rotated(rotated); // durable before the new access token is used
    }
    long expiresIn = answer.expiresInSeconds();
    if (expiresIn == TokenAnswer.NO_EXPIRY) {
      session.refreshAtNanos = requested + TimeUnit.DAYS.toNanos(365);
    } else {
      long lifetime = TimeUnit.SECONDS.toNanos(expiresIn);
      // Renew a quarter of the lifetime (at most a minute) early: clocks and queues differ.
      session.refreshAtNanos =
          requested
              + lifetime
              - Math.min(TimeUnit.SECONDS.toNanos(MAX_MARGIN_SECONDS), lifetime / 4);
    }
    session.accessToken = access;
    session.rejections = 0;
    onTokenFetched.run();
    LOG.info(
        "OAuth2 access token from {} ({}){}",
        Redaction.url(tokenUri),
        expiresIn == TokenAnswer.NO_EXPIRY ? "no expiry given" : "expires in " + expiresIn + " s",
        rotates ? "; the rotated refresh token is stored in " + refreshTokens.key() : "");
  }

  private HttpRequest tokenRequest(String refreshToken) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", settings.grant().name().toLowerCase());
    if (refreshToken != null) {
      form.put("refresh_token", refreshToken);
    }
    if (!settings.scope().isEmpty()) {
      form.put("scope", settings.scope());
    }
    HttpRequest.Builder b = HttpExchanger.newRequest(tokenUri, timeoutMs);
    if (settings.clientAuth() == ClientAuth.BASIC) {
      b.header(
          "Authorization",
          "Basic "
              + Authenticator.basicCredentials(
                  formEncode(settings.clientId()), formEncode(settings.clientSecret())));
    } else {
      form.put("client_id", settings.clientId());
      if (!settings.clientSecret().isEmpty()) {
        form.put("client_secret", settings.clientSecret());
      }
    }
    String body =
        form.entrySet().stream()
            .map(e -> formEncode(e.getKey()) + "=" + formEncode(e.getValue()))
            .collect(Collectors.joining("&"));
    return b.header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private RequestFailure failure(Response response, String used) {
    int status = response.status();
    String error = errorOf(response);
    if (RequestFailure.kindOf(status) == RequestFailure.Kind.TRANSIENT) {
      Duration retryAfter =
          RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null), Instant.now())
              .orElse(null);
      return new RequestFailure(
          RequestFailure.Kind.TRANSIENT,
          status,
          retryAfter,
          where() + " answered " + status + error);
    }
    if (used != null && error.contains("invalid_grant")) {
      return rejectedRefreshToken(status, used);
    }
    return RequestFailure.permanent(status, where() + " answered " + status + error);
  }

  /** The refresh token was refused: another task may have rotated it; retry with the stored one. */
  private RequestFailure rejectedRefreshToken(int status, String used) {
    int rejections = ++session.rejections;
    if (!refreshTokens.current().equals(used)) {
      return new RequestFailure(
          RequestFailure.Kind.TRANSIENT,
          status,
          Duration.ZERO,
          where()
              + " refused a refresh token another task has rotated since; retrying with the"
              + " stored one");
    }
    if (rejections < REJECTIONS_BEFORE_FAILING) {
      return RequestFailure.transientFailure(
          status, where() + " refused the refresh token (invalid_grant); asking again");
    }
    return RequestFailure.permanent(
        status,
        where()
            + " refused the refresh token (invalid_grant): it was revoked or used elsewhere."
            + " Authorize again and set auth.oauth2.refresh.token to the new refresh token");
  }

  /** {@code ": error (description)"} from an RFC 6749 error body, never echoing anything else. */
  private static String errorOf(Response response) {
    try {
      JsonNode body = JSON.readTree(response.body());
      String error = body.path("error").asText("");
      String description = body.path("error_description").asText("");
      if (error.isEmpty()) {
        return "";
      }
      return ": " + Excerpt.of(error + (description.isEmpty() ? "" : " (" + description + ")"));
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private String where() {
    return "token endpoint " + Redaction.url(tokenUri);
  }

  private static String formEncode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
