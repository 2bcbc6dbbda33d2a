package io.skippr.connect.state.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Leases without clocks: the holder bumps a heartbeat counter in the lease row; a contender takes
 * the lease only after it observed the row unchanged for the whole lease duration on its own
 * monotonic clock. No wall clock is compared between machines, so clock skew cannot break it.
 *
 * <p>The holder must heartbeat well within the lease duration (a third of it is a good period). One
 * instance per holder id; holder ids must be unique among contenders.
 */
public final class Leases {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final StateStore store;
  private final String holderId;
  private final long durationNanos;
  private final MonotonicTicker ticker;
  private final Map<StateKey, Observation> observed = new ConcurrentHashMap<>();

  private record Observation(long version, long sinceNanos) {}

  private record Body(String holder, long heartbeat) {}

  public Leases(StateStore store, String holderId, Duration duration, MonotonicTicker ticker) {
    this.store = Objects.requireNonNull(store, "store");
    if (holderId == null || holderId.isBlank()) {
      throw new IllegalArgumentException("lease holder id must not be blank");
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("lease duration must be positive");
    }
    this.holderId = holderId;
    this.durationNanos = duration.toNanos();
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /**
   * Takes the lease if it is free, already ours, or its holder's heartbeat has not moved for the
   * lease duration since this contender first saw it; otherwise returns empty. Call it periodically
   * to contend.
   */
  public Optional<Lease> tryAcquire(StateKey key) {
    return tryAcquire(key, holder -> false);
  }

  /**
   * As {@link #tryAcquire(StateKey)}, but takes the lease at once when {@code holderGone} knows its
   * holder is gone (say a process of this host that no longer runs), without waiting out the
   * duration.
   */
  public Optional<Lease> tryAcquire(StateKey key, Predicate<String> holderGone) {
    requireLeaseKey(key);
    Optional<StateEntry> current = store.get(key);
    if (current.isEmpty()) {
      observed.remove(key);
      return write(key, 0, 0);
    }
    StateEntry entry = current.get();
    Body body = decode(entry);
    if (holderId.equals(body.holder())) {
      observed.remove(key);
      return write(key, entry.version(), body.heartbeat() + 1);
    }
    if (holderGone.test(body.holder())) {
      observed.remove(key);
      return write(key, entry.version(), 0);
    }
    long now = ticker.nanos();
    Observation seen = observed.get(key);
    if (seen == null || seen.version() != entry.version()) {
      observed.put(key, new Observation(entry.version(), now));
      return Optional.empty();
    }
    if (now - seen.sinceNanos() < durationNanos) {
      return Optional.empty();
    }
    observed.remove(key);
    return write(key, entry.version(), 0);
  }

  /** Bumps the heartbeat; empty means the lease was lost to a contender and must not be used. */
  public Optional<Lease> heartbeat(Lease lease) {
    requireOwn(lease);
    return write(lease.key(), lease.version(), lease.heartbeat() + 1);
  }

  /** Gives the lease up so a contender can take it at once; returns false if it was lost. */
  public boolean release(Lease lease) {
    requireOwn(lease);
    return store.compareAndDelete(lease.key(), lease.version());
  }

  /**
   * Whether another holder keeps the lease: its row names someone else and its heartbeat moved
   * within the lease duration, as this instance observes it (a first look counts as moving). A
   * holder that died stops counting once the duration passed without a heartbeat.
   */
  public boolean heldByOther(StateKey key) {
    requireLeaseKey(key);
    Optional<StateEntry> current = store.get(key);
    if (current.isEmpty()) {
      observed.remove(key);
      return false;
    }
    StateEntry entry = current.get();
    if (holderId.equals(decode(entry).holder())) {
      return false;
    }
    long now = ticker.nanos();
    Observation seen = observed.get(key);
    if (seen == null || seen.version() != entry.version()) {
      observed.put(key, new Observation(entry.version(), now));
      return true;
    }
    return now - seen.sinceNanos() < durationNanos;
  }

  /** The current holder of a lease row, if any (for status displays). */
  public Optional<String> holder(StateKey key) {
    requireLeaseKey(key);
    return store.get(key).map(e -> decode(e).holder());
  }

  private Optional<Lease> write(StateKey key, long expectedVersion, long heartbeat) {
    byte[] value = encode(new Body(holderId, heartbeat));
    return store
        .compareAndSet(key, expectedVersion, value)
        .map(e -> new Lease(key, holderId, heartbeat, e.version()));
  }

  private void requireOwn(Lease lease) {
    if (!holderId.equals(lease.holder())) {
      throw new IllegalArgumentException(
          "lease " + lease.key() + " is held by " + lease.holder() + ", not " + holderId);
    }
  }

  private static void requireLeaseKey(StateKey key) {
    if (key.kind() != StateKind.LEASE) {
      throw new IllegalArgumentException("lease keys are of kind lease, got " + key);
    }
  }

  private static byte[] encode(Body body) {
    try {
      return JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Body decode(StateEntry entry) {
    try {
      return JSON.readValue(entry.value(), Body.class);
    } catch (IOException e) {
      throw new StateStoreException("lease row " + entry.key() + " is not a lease: " + e, e);
    }
  }
}
