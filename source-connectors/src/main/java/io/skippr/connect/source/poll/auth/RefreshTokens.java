package io.skippr.connect.source.poll.auth;

import io.skippr.connect.source.poll.config.PollAuthConfig;
import io.skippr.connect.state.api.Sha256;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import java.nio.charset.StandardCharsets;

/**
 * The newest refresh token of one OAuth2 authorization, kept as a {@code secret#oauth2/…} row (the
 * store encrypts secrets with AES-GCM under {@code SKIPPR_STATE_KEY}). The row is named by the
 * token endpoint, the client and a hash of the configured first token, so endpoints and tasks that
 * share an authorization share the row, and a newly configured token starts a new row.
 */
public final class RefreshTokens {

  private final StateStore store;
  private final StateKey key;
  private final String configured;

  public RefreshTokens(StateStore store, StateScope scope, PollAuthConfig.OAuth2 oauth2) {
    this.store = store;
    this.configured = oauth2.refreshToken();
    String identity = oauth2.tokenUrl() + "\n" + oauth2.clientId() + "\n" + configured;
    String id = Sha256.hex(identity.getBytes(StandardCharsets.UTF_8)).substring(0, 32);
    this.key = StateKey.of(scope, StateKind.SECRET, "oauth2/" + id);
  }

  /** The newest refresh token: the stored one, else the configured one. */
  public String current() {
    return store
        .get(key)
        .map(row -> new String(row.value(), StandardCharsets.UTF_8))
        .orElse(configured);
  }

  /** Stores a rotated token; it is durable before this returns, so it is stored before use. */
  public void rotated(String token) {
    store.put(key, token.getBytes(StandardCharsets.UTF_8));
  }

  /** The row's key, for log lines (it reveals nothing about the token). */
  public StateKey key() {
    return key;
  }
}
