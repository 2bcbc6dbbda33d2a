package io.skippr.connect.source.http.config;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** Which topics accepted and rejected rows go to. */
public final class TopicConfig {

  public static final String PREFIX = "topic.prefix";
  public static final String TOPIC = "topic";
  public static final String REJECTION_TOPIC = "rejection.topic";

  /** Default rejection topic suffix; no measurement maps to it ('_' names are rejected). */
  public static final String REJECTION_SUFFIX = "_rejections";

  /**
   * @param prefix prepended to the measurement (line protocol) or stream (JSON) name
   * @param fixedTopic when non-empty, every accepted row goes to this topic instead
   * @param rejectionTopic where rejected rows go
   */
  public record Values(String prefix, String fixedTopic, String rejectionTopic) {}

  private TopicConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            PREFIX,
            Type.STRING,
            "",
            TOPIC_NAME,
            Importance.HIGH,
            "Prefix of the topic names: line protocol rows go to {prefix}{measurement}, JSON items"
                + " to {prefix}{stream}. Characters a topic name cannot hold become '_'.")
        .define(
            TOPIC,
            Type.STRING,
            "",
            TOPIC_NAME,
            Importance.MEDIUM,
            "When set, all accepted rows go to this one topic (the measurement stays in the key"
                + " and the 'measurement' header).")
        .define(
            REJECTION_TOPIC,
            Type.STRING,
            "",
            TOPIC_NAME,
            Importance.MEDIUM,
            "Topic for rejected rows with their position and reason. Empty means"
                + " {topic.prefix}"
                + REJECTION_SUFFIX
                + ".");
  }

  public static Values from(AbstractConfig c) {
    String prefix = c.getString(PREFIX);
    String rejection = c.getString(REJECTION_TOPIC);
    return new Values(
        prefix, c.getString(TOPIC), rejection.isEmpty() ? prefix + REJECTION_SUFFIX : rejection);
  }

  /** Empty, or characters a Kafka topic name may hold. */
  private static final ConfigDef.Validator TOPIC_NAME =
      new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
          String text = (String) value;
          if (text != null && !text.isEmpty() && !TopicNames.isLegal(text)) {
            throw new ConfigException(
                name, value, "may hold only ASCII letters, digits, '.', '_' and '-' (at most 249)");
          }
        }

        @Override
        public String toString() {
          return "empty or ASCII letters, digits, '.', '_', '-' (at most 249)";
        }
      };
}
