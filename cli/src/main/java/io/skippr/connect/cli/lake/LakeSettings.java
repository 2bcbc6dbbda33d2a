package io.skippr.connect.cli.lake;

import io.skippr.connect.lake.storage.StorageConfig;
import io.skippr.connect.lake.write.LakeSinkConfig;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigException;

/**
 * The lake a command reads, in the lake sink's own keys: the connector's config as Connect holds it
 * (when a connector was read), with the command line's lake root and settings over it.
 *
 * @param connector the connector's name, or null
 * @param settings the lake sink settings (topics.dir, s3.*, sts.*, write.policy, ...)
 * @param topics the connector's {@code topics}; empty without a connector
 * @param topicsRegex the connector's {@code topics.regex}, or null
 */
public record LakeSettings(
    String connector, Map<String, String> settings, List<String> topics, Pattern topicsRegex) {

  public static final String SINK_CLASS = "io.skippr.connect.sink.LakeSinkConnector";

  public LakeSettings {
    settings = Map.copyOf(settings);
    topics = List.copyOf(topics);
  }

  /**
   * @param connectorConfig the connector's config read from Connect, empty when not read
   * @param topicsDir the lake's root from the command line, or null
   * @param overrides lake sink settings from the command line, over the connector's
   * @param howToName how the command names a lake, told when none is named
   * @throws LakeException when the lake is not named, or the connector is not a lake sink
   */
  public static LakeSettings resolve(
      String connector,
      Map<String, String> connectorConfig,
      String topicsDir,
      Map<String, String> overrides,
      String howToName) {
    String connectorClass = connectorConfig.get("connector.class");
    if (connectorClass != null && !connectorClass.equals(SINK_CLASS)) {
      throw new LakeException(
          "connector "
              + connector
              + " runs "
              + connectorClass
              + ", not the lake sink "
              + SINK_CLASS);
    }
    Map<String, String> settings = new HashMap<>(connectorConfig);
    if (topicsDir != null) {
      settings.put(StorageConfig.TOPICS_DIR, topicsDir);
    }
    settings.putAll(overrides);
    if (settings.getOrDefault(StorageConfig.TOPICS_DIR, "").isBlank()) {
      throw new LakeException(
          "name the lake: "
              + howToName
              + ", or --connect-url with --connector to read it from the connector's config");
    }
    return new LakeSettings(
        connector,
        settings,
        list(connectorConfig.get("topics")),
        regex(connectorConfig.get("topics.regex")));
  }

  /**
   * The lake sink's config of the lake.
   *
   * @throws LakeException naming the key that is wrong
   */
  public LakeSinkConfig config() {
    try {
      return new LakeSinkConfig(settings);
    } catch (ConfigException e) {
      throw new LakeException("the lake's settings are wrong: " + e.getMessage(), e);
    }
  }

  /** True when the connector consumes the topic ({@code topics} or {@code topics.regex}). */
  public boolean consumes(String topic) {
    return topics.contains(topic) || (topicsRegex != null && topicsRegex.matcher(topic).matches());
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
      throw new LakeException("the connector's topics.regex is not a pattern: " + e.getMessage());
    }
  }
}
