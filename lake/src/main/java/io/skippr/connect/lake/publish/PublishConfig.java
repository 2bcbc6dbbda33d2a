package io.skippr.connect.lake.publish;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The switch of Iceberg registration, and the keys of each installed listener. The switch lives in
 * the base plugin, so that turning it on where the Iceberg part is missing fails validation with a
 * message saying what to install.
 */
public final class PublishConfig {
  public static final String GROUP = "Iceberg";
  public static final String ICEBERG = "iceberg";
  public static final String ICEBERG_ENABLED = "iceberg.enabled";

  static final String NOT_INSTALLED =
      "Iceberg support is not installed: put the skippr-connect-iceberg plugin archive in"
          + " plugin.path in place of skippr-connect; for skippr compact and sync, its lib/* in"
          + " SKIPPR_CLASSPATH (see doc/iceberg.md)";

  private static final String ENABLED_DOC =
      "Register every committed unit's files in an Iceberg table per lake table (namespace"
          + " iceberg.table.namespace, catalog iceberg.catalog.*), idempotently by compaction id."
          + " Needs the skippr-connect-iceberg plugin archive.";

  private PublishConfig() {}

  /** Adds the switch and every installed listener's own keys. */
  public static ConfigDef define(ConfigDef def) {
    def.define(
        ICEBERG_ENABLED,
        Type.BOOLEAN,
        false,
        ConfigDef.LambdaValidator.with(
            PublishConfig::requireInstalled, () -> "true (with the Iceberg part installed), false"),
        Importance.MEDIUM,
        ENABLED_DOC,
        GROUP,
        0,
        Width.SHORT,
        "Iceberg registration");
    for (CommitListenerProvider provider : CommitListeners.providers()) {
      for (ConfigDef.ConfigKey key : provider.configDef().configKeys().values()) {
        if (!def.names().contains(key.name)) {
          def.define(key);
        }
      }
    }
    return def;
  }

  /** Whether the properties switch Iceberg registration on. */
  public static boolean icebergEnabled(Map<String, String> props) {
    String value = props.get(ICEBERG_ENABLED);
    return value != null && value.trim().equalsIgnoreCase("true");
  }

  /** Cross-key problems of the switched-on listener, by key. */
  public static Map<String, String> problems(Map<String, String> props) {
    Map<String, String> problems = new LinkedHashMap<>();
    if (icebergEnabled(props)) {
      CommitListeners.provider(ICEBERG).ifPresent(p -> problems.putAll(p.problems(props)));
    }
    return problems;
  }

  private static void requireInstalled(String name, Object value) {
    if (Boolean.TRUE.equals(value) && CommitListeners.provider(ICEBERG).isEmpty()) {
      throw new ConfigException(name, value, NOT_INSTALLED);
    }
  }
}
