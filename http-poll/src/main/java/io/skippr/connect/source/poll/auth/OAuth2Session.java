package io.skippr.connect.source.poll.auth;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.source.poll.config.PollAuthConfig;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The access token of one authorization, shared by every task of this worker that uses it (all
 * tasks load our plugin through one class loader): one refresh serves them all, so a rotating
 * refresh token is never presented by two tasks at once. Callers hold the session's monitor while
 * they read or renew it.
 */
final class OAuth2Session {

  private static final Map<String, OAuth2Session> SESSIONS = new ConcurrentHashMap<>();

  String accessToken;
  long refreshAtNanos;
  int rejections;

  private OAuth2Session() {}

  /** The session of an authorization within a pipeline scope. */
  static OAuth2Session of(String scope, PollAuthConfig.OAuth2 o) {
    String identity =
        String.join(
            "\n",
            scope,
            o.tokenUrl(),
            o.clientId(),
            o.clientSecret(),
            o.scope(),
            o.grant().name(),
            o.refreshToken(),
            o.clientAuth().name());
    return SESSIONS.computeIfAbsent(
        Sha256.hex(identity.getBytes(StandardCharsets.UTF_8)), k -> new OAuth2Session());
  }
}
