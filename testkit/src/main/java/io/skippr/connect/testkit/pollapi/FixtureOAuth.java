package io.skippr.connect.testkit.pollapi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fixture's OAuth2 token endpoint (RFC 6749): client credentials and refresh tokens, with
 * strict rotation: each refresh issues a new refresh token and the one used stops working at once
 * ({@code invalid_grant} when it is used again), as providers with refresh token rotation do.
 */
public final class FixtureOAuth {

  /** A token endpoint answer: status and JSON body. */
  record Answer(int status, String body) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String clientId;
  private final String clientSecret;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Instant> accessTokens = new HashMap<>();
  private final Map<String, String> refreshIssuedWith = new HashMap<>();
  private final List<String> issuedRefreshTokens = new ArrayList<>();
  private final List<Answer> scripted = new ArrayList<>();
  private volatile long accessLifetimeSeconds = 3600;
  private String validRefreshToken;
  private int refreshes;
  private int rejectedRefreshes;
  private int accessTokensIssued;
  private Instant lastIssued = Instant.EPOCH;

  FixtureOAuth(String clientId, String clientSecret, String initialRefreshToken, Clock clock) {
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.validRefreshToken = initialRefreshToken;
    this.clock = clock;
    issuedRefreshTokens.add(initialRefreshToken);
  }

  /** How long new access tokens live ({@code expires_in}). */
  public void accessLifetimeSeconds(long seconds) {
    accessLifetimeSeconds = seconds;
  }

  /** The next {@code n} token requests get {@code status} (e.g. 503). */
  public synchronized void failNext(int n, int status) {
    for (int i = 0; i < n; i++) {
      scripted.add(new Answer(status, "{\"error\":\"temporarily_unavailable\"}"));
    }
  }

  /** The next token request gets this answer, whatever it asks for (hostile answers). */
  public synchronized void answerNext(int status, String body) {
    scripted.add(new Answer(status, body));
  }

  /** A user authorized the client again: only {@code refreshToken} works from now on. */
  public synchronized void reauthorize(String refreshToken) {
    validRefreshToken = refreshToken;
    issuedRefreshTokens.add(refreshToken);
  }

  public synchronized int accessTokensIssued() {
    return accessTokensIssued;
  }

  /** Revokes every access token issued so far (their next use gets 401). */
  public synchronized void revokeAccessTokens() {
    accessTokens.clear();
  }

  /** Every refresh token this endpoint issued, the initial one first. */
  public synchronized List<String> issuedRefreshTokens() {
    return List.copyOf(issuedRefreshTokens);
  }

  /** The only refresh token that works now. */
  public synchronized String validRefreshToken() {
    return validRefreshToken;
  }

  /** The refresh token issued with an access token (null for client credentials). */
  public synchronized String refreshTokenIssuedWith(String accessToken) {
    return refreshIssuedWith.get(accessToken);
  }

  public synchronized int refreshes() {
    return refreshes;
  }

  public synchronized int rejectedRefreshes() {
    return rejectedRefreshes;
  }

  /** When the last access token was issued. */
  public synchronized Instant lastIssued() {
    return lastIssued;
  }

  synchronized boolean validAccessToken(String token) {
    Instant expiry = token == null ? null : accessTokens.get(token);
    return expiry != null && clock.instant().isBefore(expiry);
  }

  synchronized Answer token(String authorization, String body) {
    if (!scripted.isEmpty()) {
      return scripted.remove(0);
    }
    Map<String, String> form = form(body);
    if (!clientAuthenticated(authorization, form)) {
      return new Answer(401, "{\"error\":\"invalid_client\"}");
    }
    String grant = form.getOrDefault("grant_type", "");
    if (grant.equals("client_credentials")) {
      return issue(null);
    }
    if (!grant.equals("refresh_token")) {
      return new Answer(400, "{\"error\":\"unsupported_grant_type\"}");
    }
    String presented = form.get("refresh_token");
    if (presented == null || !presented.equals(validRefreshToken)) {
      rejectedRefreshes++;
      return new Answer(
          400, "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token reused\"}");
    }
    refreshes++;
    validRefreshToken = "rt-" + randomToken();
    issuedRefreshTokens.add(validRefreshToken);
    return issue(validRefreshToken);
  }

  private Answer issue(String refreshToken) {
    String access = "at-" + randomToken();
    Instant now = clock.instant();
    accessTokens.put(access, now.plusSeconds(accessLifetimeSeconds));
    accessTokensIssued++;
    lastIssued = now;
    ObjectNode answer = JSON.createObjectNode();
    answer.put("access_token", access);
    answer.put("token_type", "Bearer");
    answer.put("expires_in", accessLifetimeSeconds);
    if (refreshToken != null) {
      answer.put("refresh_token", refreshToken);
      refreshIssuedWith.put(access, refreshToken);
    }
    return new Answer(200, answer.toString());
  }

  private boolean clientAuthenticated(String authorization, Map<String, String> form) {
    if (authorization != null && authorization.startsWith("Basic ")) {
      String decoded =
          new String(
              Base64.getDecoder().decode(authorization.substring(6).trim()),
              StandardCharsets.UTF_8);
      int colon = decoded.indexOf(':');
      return colon > 0
          && decode(decoded.substring(0, colon)).equals(clientId)
          && decode(decoded.substring(colon + 1)).equals(clientSecret);
    }
    return clientId.equals(form.get("client_id")) && clientSecret.equals(form.get("client_secret"));
  }

  private String randomToken() {
    byte[] bytes = new byte[24];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static Map<String, String> form(String body) {
    Map<String, String> form = new HashMap<>();
    if (body == null) {
      return form;
    }
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
      }
    }
    return form;
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
