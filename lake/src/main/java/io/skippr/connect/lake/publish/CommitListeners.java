package io.skippr.connect.lake.publish;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.apache.kafka.common.config.ConfigException;

/** The installed {@link CommitListenerProvider}s and the listener a configuration switches on. */
public final class CommitListeners {
  private static volatile List<CommitListenerProvider> providers;

  private CommitListeners() {}

  /** The factory of the listener the properties switch on, or {@link ListenerFactory#NONE}. */
  public static ListenerFactory configured(Map<String, String> props) {
    if (!PublishConfig.icebergEnabled(props)) {
      return ListenerFactory.NONE;
    }
    CommitListenerProvider provider =
        provider(PublishConfig.ICEBERG)
            .orElseThrow(
                () ->
                    new ConfigException(
                        PublishConfig.ICEBERG_ENABLED, "true", PublishConfig.NOT_INSTALLED));
    Map<String, String> copy = Map.copyOf(props);
    return (storage, lake, owner) -> provider.open(new ListenerContext(storage, lake, owner, copy));
  }

  /** The installed provider of that name. */
  public static Optional<CommitListenerProvider> provider(String name) {
    return providers().stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** Every installed provider. */
  public static List<CommitListenerProvider> providers() {
    List<CommitListenerProvider> loaded = providers;
    if (loaded == null) {
      // Our own class loader: in a Connect worker the thread's context loader may not be ours.
      loaded =
          ServiceLoader.load(
                  CommitListenerProvider.class, CommitListenerProvider.class.getClassLoader())
              .stream()
              .map(ServiceLoader.Provider::get)
              .toList();
      providers = loaded;
    }
    return loaded;
  }
}
