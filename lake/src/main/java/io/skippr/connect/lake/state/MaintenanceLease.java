package io.skippr.connect.lake.state;

import io.skippr.connect.state.api.Leases;
import io.skippr.connect.state.api.MonotonicTicker;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease {@code compact/{connector}} that {@code skippr compact} holds while it maintains a
 * stopped connector's lake offline. A task's own maintenance skips its passes while another holder
 * keeps it alive, so the two never merge the same files.
 */
public final class MaintenanceLease implements BooleanSupplier, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceLease.class);

  /** How long a holder that stopped beating still counts. */
  public static final Duration DURATION = Duration.ofSeconds(30);

  private final StateStore store;
  private final Leases leases;
  private final StateKey key;

  private MaintenanceLease(StateStore store, Leases leases, StateKey key) {
    this.store = store;
    this.leases = leases;
    this.key = key;
  }

  /** The lease id of a connector's offline maintenance. */
  public static String id(String connector) {
    return "compact/" + connector;
  }

  /** Watches the lease of the connector the config names; never held when no store opens. */
  public static BooleanSupplier watch(Map<String, String> props) {
    String connector = props.get(PipelineScopeConfig.CONNECTOR_NAME);
    if (connector == null) {
      return () -> false;
    }
    try {
      StateStore store = StateStores.open(props);
      StateKey key = StateKey.of(PipelineScopeConfig.from(props), StateKind.LEASE, id(connector));
      return new MaintenanceLease(
          store,
          new Leases(store, "task-" + UUID.randomUUID(), DURATION, MonotonicTicker.system()),
          key);
    } catch (RuntimeException e) {
      LOG.debug("No state store to watch the maintenance lease in: {}", e.toString());
      return () -> false;
    }
  }

  /** Whether {@code skippr compact} holds the lease now. */
  @Override
  public boolean getAsBoolean() {
    try {
      return leases.heldByOther(key);
    } catch (RuntimeException e) {
      LOG.debug("Cannot read the maintenance lease: {}", e.toString());
      return false;
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
