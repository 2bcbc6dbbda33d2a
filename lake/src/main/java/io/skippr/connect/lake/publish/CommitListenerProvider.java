package io.skippr.connect.lake.publish;

import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * A kind of {@link CommitListener} an optional part of the plugin installs, found with {@link
 * java.util.ServiceLoader} (listed in {@code
 * META-INF/services/io.skippr.connect.lake.publish.CommitListenerProvider}). It is switched on by
 * the sink's {@code {name}.enabled} key (see {@link PublishConfig}).
 */
public interface CommitListenerProvider {

  /** The name that prefixes its keys and its switch, e.g. {@code iceberg}. */
  String name();

  /** Its own keys, each with doc, default and validator; the sink adds them to its ConfigDef. */
  ConfigDef configDef();

  /**
   * Problems of combinations of its keys in the connector's properties, by the key to change;
   * called only when the listener is switched on.
   */
  default Map<String, String> problems(Map<String, String> props) {
    return Map.of();
  }

  /** Opens a listener for one writer. */
  CommitListener open(ListenerContext context);
}
