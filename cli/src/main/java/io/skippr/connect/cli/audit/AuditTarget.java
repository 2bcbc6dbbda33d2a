package io.skippr.connect.cli.audit;

import io.skippr.connect.sink.LakeSinkConfig;
import io.skippr.connect.sink.storage.StorageConfig;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.ConfigException;

/**
 * What to audit, from the command line and the connector's config: the lake's settings (the lake
 * sink's own keys), how to reach Kafka, the group and the connector's topics. The command line wins
 * over the connector's config.
 *
 * @param group the consumer group, null when no connector is named
 * @param kafka Kafka client settings; empty when no Kafka was named
 * @param topicsRegex the connector's {@code topics.regex}, or null
 */
record AuditTarget(
    String connector,
    String group,
    Map<String, String> lake,
    Map<String, Object> kafka,
    List<String> topics,
    Pattern topicsRegex) {

  static final String SINK_CLASS = "io.skippr.connect.sink.LakeSinkConnector";
  private static final String OVERRIDE = "consumer.override.";

  /** What the command line says; null and empty mean not given. */
  record Request(
      String connector,
      String bootstrapServers,
      String group,
      String topicsDir,
      Map<String, String> lake,
      Map<String, String> kafka) {}

  /**
   * @param connectorConfig the connector's config read from Connect, empty when not read
   * @throws AuditException when the lake is not named, or the connector is not a lake sink
   */
  static AuditTarget resolve(Request request, Map<String, String> connectorConfig) {
    String connectorClass = connectorConfig.get("connector.class");
    if (connectorClass != null && !connectorClass.equals(SINK_CLASS)) {
      throw new AuditException(
          "connector "
              + request.connector()
              + " runs "
              + connectorClass
              + ", not the lake sink "
              + SINK_CLASS);
    }
    Map<String, String> lake = lake(request, connectorConfig);
    Map<String, Object> kafka = kafka(request, connectorConfig);
    String group = request.group();
    if (group == null && request.connector() != null) {
      group = connectorConfig.getOrDefault(OVERRIDE + "group.id", "connect-" + request.connector());
    }
    return new AuditTarget(
        request.connector(),
        group,
        Map.copyOf(lake),
        Map.copyOf(kafka),
        list(connectorConfig.get("topics")),
        regex(connectorConfig.get("topics.regex")));
  }

  /** The connector's config with the command line's lake settings over it. */
  private static Map<String, String> lake(Request request, Map<String, String> connectorConfig) {
    Map<String, String> lake = new HashMap<>(connectorConfig);
    if (request.topicsDir() != null) {
      lake.put(StorageConfig.TOPICS_DIR, request.topicsDir());
    }
    lake.putAll(request.lake());
    if (lake.getOrDefault(StorageConfig.TOPICS_DIR, "").isBlank()) {
      throw new AuditException(
          "name the lake: --topics-dir DIR|s3://BUCKET/PREFIX, or --connect-url with --connector"
              + " to read it from the connector's config");
    }
    return lake;
  }

  /** Client settings: the connector's consumer overrides that reach the cluster, then ours. */
  private static Map<String, Object> kafka(Request request, Map<String, String> connectorConfig) {
    Map<String, Object> kafka = new HashMap<>();
    connectorConfig.forEach(
        (key, value) -> {
          if (key.startsWith(OVERRIDE) && isConnectionKey(key.substring(OVERRIDE.length()))) {
            kafka.put(key.substring(OVERRIDE.length()), value);
          }
        });
    if (request.bootstrapServers() != null) {
      kafka.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, request.bootstrapServers());
    }
    kafka.putAll(request.kafka());
    if (!kafka.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
      kafka.clear();
    }
    return kafka;
  }

  /**
   * The lake sink's config of the lake.
   *
   * @throws AuditException naming the key that is wrong
   */
  LakeSinkConfig lakeConfig() {
    try {
      return new LakeSinkConfig(lake);
    } catch (ConfigException e) {
      throw new AuditException("the lake's settings are wrong: " + e.getMessage(), e);
    }
  }

  boolean hasKafka() {
    return !kafka.isEmpty();
  }

  /** Settings a client needs to reach the cluster (the connector's consumer overrides of them). */
  private static boolean isConnectionKey(String key) {
    return key.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
        || key.equals(CommonClientConfigs.CLIENT_DNS_LOOKUP_CONFIG)
        || key.startsWith("security.")
        || key.startsWith("sasl.")
        || key.startsWith("ssl.");
  }

  private static List<String> list(String topics) {
    if (topics == null || topics.isBlank()) {
      return List.of();
    }
    return Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
  }

  private static Pattern regex(String regex) {
    if (regex == null || regex.isBlank()) {
      return null;
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new AuditException("the connector's topics.regex is not a pattern: " + e.getMessage());
    }
  }
}
