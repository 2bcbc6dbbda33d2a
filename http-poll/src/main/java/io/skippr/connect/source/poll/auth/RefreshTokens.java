package io.skippr.connect.source.poll.auth;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.source.poll.config.PollAuthConfig;
import io.skippr.connect.state.api.Lease;
import io.skippr.connect.state.api.Leases;
import io.skippr.connect.state.api.MonotonicTicker;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * The newest refresh token of one OAuth2 authorization, kept as a {@code secret#oauth2/…} row (the
 * store encrypts secrets with AES-GCM under {@code SKIPPR_STATE_KEY}). The row is named by the
 * token endpoint, the client and a hash of the configured first token, so endpoints and tasks that
 * share an authorization share the row, and a newly configured token starts a new row. A lease row
 * of the same name makes sure only one task at a time, in any worker, presents the token: a
 * rotating server refuses a refresh token used twice, and some revoke the whole authorization.
 */
public final class RefreshTokens {

  private final StateStore store;
  private final StateKey key;
  private final StateKey leaseKey;
  private final String configured;
  private final Leases leases;

  /**
   * @param lease how long a lease without heartbeat stays with its holder (longer than one token
   *     request may take, since the holder cannot heartbeat while it waits for the answer)
   */
  public RefreshTokens(
      StateStore store, StateScope scope, PollAuthConfig.OAuth2 oauth2, Duration lease) {
    this.store = store;
    this.configured = oauth2.refreshToken();
    String identity = oauth2.tokenUrl() + "\n" + oauth2.clientId() + "\n" + configured;
    String id = Sha256.hex(identity.getBytes(StandardCharsets.UTF_8)).substring(0, 32);
    this.key = StateKey.of(scope, StateKind.SECRET, "oauth2/" + id);
    this.leaseKey = StateKey.of(scope, StateKind.LEASE, "oauth2/" + id);
    this.leases = new Leases(store, "task-" + UUID.randomUUID(), lease, MonotonicTicker.system());
  }

  /** The right to present the refresh token now; empty while another task holds it. */
  public Optional<Lease> tryLock() {
    return leases.tryAcquire(leaseKey);
  }

  public void unlock(Lease lease) {
    leases.release(lease);
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

  /** The lease row's key. */
  public StateKey leaseKey() {
    return leaseKey;
  }

  /** The row's key, for log lines (it reveals nothing about the token). */
  public StateKey key() {
    return key;
  }
}
