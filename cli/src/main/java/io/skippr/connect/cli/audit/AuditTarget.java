package io.skippr.connect.cli.audit;

import io.skippr.connect.cli.lake.LakeSettings;
import io.skippr.connect.lake.write.LakeSinkConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * What to audit, from the command line and the connector's config: the lake (the lake sink's own
 * keys), how to reach Kafka, the group and the connector's topics. The command line wins over the
 * connector's config.
 *
 * @param group the consumer group, null when no connector is named
 * @param kafka Kafka client settings; empty when no Kafka was named
 */
record AuditTarget(LakeSettings lake, String group, Map<String, Object> kafka) {

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
   * @throws io.skippr.connect.cli.lake.LakeException when the lake is not named, or the connector
   *     is not a lake sink
   */
  static AuditTarget resolve(Request request, Map<String, String> connectorConfig) {
    LakeSettings lake =
        LakeSettings.resolve(
            request.connector(),
            connectorConfig,
            request.topicsDir(),
            request.lake(),
            "--topics-dir DIR|s3://BUCKET/PREFIX");
    Map<String, Object> kafka = kafka(request, connectorConfig);
    String group = request.group();
    if (group == null && request.connector() != null) {
      group = connectorConfig.getOrDefault(OVERRIDE + "group.id", "connect-" + request.connector());
    }
    return new AuditTarget(lake, group, Map.copyOf(kafka));
  }

  String connector() {
    return lake.connector();
  }

  List<String> topics() {
    return lake.topics();
  }

  /** The connector's {@code topics.regex}, or null. */
  Pattern topicsRegex() {
    return lake.topicsRegex();
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
   * @throws io.skippr.connect.cli.lake.LakeException naming the key that is wrong
   */
  LakeSinkConfig lakeConfig() {
    return lake.config();
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
}
