package io.skippr.connect.state.api;

import io.skippr.connect.state.api.StateStoreSettings.Origin;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the configured state store: resolves settings, picks the provider, guards secrets. */
public final class StateStores {
  private static final Logger LOG = LoggerFactory.getLogger(StateStores.class);
  private static volatile List<StateStoreProvider> providers;

  private StateStores() {}

  /** Opens the store a connector config asks for, falling back to the process environment. */
  public static StateStore open(Map<String, String> connectorConfig) {
    return open(connectorConfig, StoreEnvironment.system());
  }

  /** Opens the store with an explicit environment (tests, embedding). */
  public static StateStore open(Map<String, String> connectorConfig, StoreEnvironment env) {
    return open(StateStoreSettings.resolve(connectorConfig, env));
  }

  /** Opens the store of already resolved settings. */
  public static StateStore open(StateStoreSettings settings) {
    StateStoreProvider provider = provider(settings.type());
    StateStoreSettings canonical =
        settings.withType(new Origin<>(provider.type(), settings.type().source()));
    SecretCodec codec =
        settings.encryption() ? SecretCodec.fromEnvironment(settings.environment()) : null;
    StateStore store = provider.open(canonical);
    LOG.info(
        "State store: {} (type from {}), secrets {}",
        store.describe(),
        settings.type().source(),
        !settings.encryption()
            ? "in plain text"
            : codec == null ? "refused (no key)" : "encrypted");
    return new SecretProtectingStateStore(store, settings.encryption(), codec);
  }

  /** Every type name and alias the installed providers accept. */
  public static Set<String> knownTypes() {
    Set<String> types = new TreeSet<>();
    for (StateStoreProvider p : providers()) {
      types.add(p.type());
      types.addAll(p.aliases());
    }
    return types;
  }

  static StateStoreProvider provider(Origin<String> type) {
    for (StateStoreProvider p : providers()) {
      if (p.type().equals(type.value()) || p.aliases().contains(type.value())) {
        return p;
      }
    }
    throw new StateStoreException(
        "store.type="
            + type.value()
            + " (from "
            + type.source()
            + ") is not a known state store type; known types: "
            + knownTypes());
  }

  /** The installed backends. */
  static List<StateStoreProvider> providers() {
    List<StateStoreProvider> loaded = providers;
    if (loaded == null) {
      // Our own class loader: in a Connect worker the thread's context loader may not be ours.
      loaded =
          ServiceLoader.load(StateStoreProvider.class, StateStoreProvider.class.getClassLoader())
              .stream()
              .map(ServiceLoader.Provider::get)
              .toList();
      providers = loaded;
    }
    return loaded;
  }
}
