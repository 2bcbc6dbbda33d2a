package io.skippr.connect.cli.lease;

import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.state.api.Lease;
import io.skippr.connect.state.api.Leases;
import io.skippr.connect.state.api.MonotonicTicker;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A lease a command holds in the state store while it runs ({@code sync/{pipeline}}, {@code
 * compact/{connector}}), without clocks ({@link Leases}). The holder bumps its heartbeat every
 * third of the lease's duration; a second run waits or refuses, naming the holder, and takes over
 * once the holder's heartbeat stood still for the whole duration (the holder died), or at once when
 * the holder was a process of this host that no longer runs.
 */
public final class HeldLease implements AutoCloseable {
  private final Leases leases;

  /** The process and host in a holder's name. */
  private static final Pattern HOLDER = Pattern.compile("\\(pid (\\d+) on (\\S+),");

  private final StateKey key;
  private final Duration duration;
  private final AtomicReference<Lease> held = new AtomicReference<>();
  private final ScheduledExecutorService heartbeats =
      Executors.newSingleThreadScheduledExecutor(new MdcThreadFactory("skippr-lease"));
  private volatile boolean lost;

  /**
   * @param id the lease's id, e.g. {@code sync/orders}
   * @param command who holds it, e.g. {@code skippr sync}
   */
  public HeldLease(
      StateStore store, StateScope scope, String id, String command, Duration duration) {
    this.key = StateKey.of(scope, StateKind.LEASE, id);
    this.duration = duration;
    this.leases = new Leases(store, holderName(command), duration, MonotonicTicker.system());
  }

  /** Who holds it: the process, the host and when it started, plus a unique suffix. */
  private static String holderName(String command) {
    return command
        + " (pid "
        + ProcessHandle.current().pid()
        + " on "
        + hostName()
        + ", started "
        + Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime())
        + ") "
        + UUID.randomUUID().toString().substring(0, 8);
  }

  /**
   * Takes the lease, waiting for it when {@code wait} (telling {@code waiting} the holder once).
   *
   * @return empty when taken; else the holder's name (it is held and not waited for)
   */
  public Optional<String> take(boolean wait, Consumer<String> waiting) throws InterruptedException {
    boolean told = false;
    while (true) {
      Optional<Lease> lease = leases.tryAcquire(key, HeldLease::goneFromThisHost);
      if (lease.isPresent()) {
        held.set(lease.get());
        long period = Math.max(1, duration.toMillis() / 3);
        heartbeats.scheduleAtFixedRate(this::beat, period, period, TimeUnit.MILLISECONDS);
        return Optional.empty();
      }
      String holder = leases.holder(key).orElse("another run");
      if (!wait) {
        return Optional.of(holder);
      }
      if (!told) {
        waiting.accept(holder);
        told = true;
      }
      Thread.sleep(Math.max(100, duration.toMillis() / 10));
    }
  }

  /** Whether the holder was a process of this host that no longer runs. */
  public static boolean goneFromThisHost(String holder) {
    Matcher matcher = HOLDER.matcher(holder);
    if (!matcher.find() || !matcher.group(2).equals(hostName())) {
      return false;
    }
    long pid = Long.parseLong(matcher.group(1));
    return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      return "unknown-host";
    }
  }

  /** Whether the lease was lost to another run (the holder then stops at once). */
  public boolean lost() {
    return lost;
  }

  private void beat() {
    Lease lease = held.get();
    if (lease == null) {
      return;
    }
    Optional<Lease> next = leases.heartbeat(lease);
    if (next.isEmpty()) {
      lost = true;
      held.set(null);
    } else {
      held.set(next.get());
    }
  }

  @Override
  public void close() {
    heartbeats.shutdownNow();
    Lease lease = held.getAndSet(null);
    if (lease != null) {
      leases.release(lease);
    }
  }
}
