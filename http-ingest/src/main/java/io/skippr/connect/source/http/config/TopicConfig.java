package io.skippr.connect.source.http.config;

import io.skippr.connect.source.common.TopicNames;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** Which topics accepted and rejected rows go to. */
public final class TopicConfig {

  public static final String PREFIX = "topic.prefix";
  public static final String JSON_PREFIX = "json.topic.prefix";
  public static final String ALLOW_REGEX = "topic.allow.regex";
  public static final String TOPIC = "topic";
  public static final String REJECTION_TOPIC = "rejection.topic";

  /** Default rejection topic suffix; no measurement maps to it ('_' names are rejected). */
  public static final String REJECTION_SUFFIX = "_rejections";

  /**
   * @param prefix prepended to the mapped measurement (line protocol) name
   * @param jsonPrefix prepended to the mapped stream (JSON) name
   * @param fixedTopic when non-empty, every accepted row goes to this topic instead
   * @param rejectionTopic where rejected rows go
   * @param allowed when present, a topic per name must match it as a whole
   */
  public record Values(
      String prefix,
      String jsonPrefix,
      String fixedTopic,
      String rejectionTopic,
      Optional<Pattern> allowed) {

    /** Line protocol and JSON under one prefix, no fixed topic, no pattern (tests, files). */
    public Values(String prefix, String fixedTopic, String rejectionTopic) {
      this(prefix, prefix, fixedTopic, rejectionTopic, Optional.empty());
    }
  }

  private TopicConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            PREFIX,
            Type.STRING,
            "",
            TopicNames.EMPTY_OR_LEGAL,
            Importance.HIGH,
            "Prefix of the topics of line protocol rows: {topic.prefix}{measurement}. A name of"
                + " ASCII letters, digits, '_' and '-' is used as it is; any other name is written"
                + " as '_' and the name with every other byte as '_' and two hex digits (cpu.load"
                + " → _cpu_2eload), so two names never share a topic.")
        .define(
            JSON_PREFIX,
            Type.STRING,
            null,
            TopicNames.UNSET_EMPTY_OR_LEGAL,
            Importance.MEDIUM,
            "Prefix of the topics of JSON streams: {json.topic.prefix}{stream}, the stream name"
                + " mapped as for measurements. Unset: topic.prefix (then a stream and a measurement"
                + " of the same name would share a topic, and whichever comes second is refused)."
                + " A prefix of their own lets a lake sink partition measurements by their time"
                + " column and streams by arrival.")
        .define(
            ALLOW_REGEX,
            Type.STRING,
            "",
            REGEX,
            Importance.MEDIUM,
            "When set, a measurement or stream may only have a topic that matches this regular"
                + " expression as a whole (e.g. metrics\\.(cpu|mem|disk).*); rows of other names are"
                + " rejected with the reason. Empty: every name may have a topic, up to"
                + " limits.topics.max.")
        .define(
            TOPIC,
            Type.STRING,
            "",
            TopicNames.EMPTY_OR_LEGAL,
            Importance.MEDIUM,
            "When set, all accepted rows go to this one topic (the measurement stays in the key"
                + " and the 'measurement' header).")
        .define(
            REJECTION_TOPIC,
            Type.STRING,
            "",
            TopicNames.EMPTY_OR_LEGAL,
            Importance.MEDIUM,
            "Topic for rejected rows with their position and reason. Empty means"
                + " {topic.prefix}"
                + REJECTION_SUFFIX
                + ".");
  }

  public static Values from(AbstractConfig c) {
    String prefix = c.getString(PREFIX);
    String jsonPrefix = c.getString(JSON_PREFIX);
    String rejection = c.getString(REJECTION_TOPIC);
    String regex = c.getString(ALLOW_REGEX);
    return new Values(
        prefix,
        jsonPrefix == null ? prefix : jsonPrefix,
        c.getString(TOPIC),
        rejection.isEmpty() ? prefix + REJECTION_SUFFIX : rejection,
        regex.isEmpty() ? Optional.empty() : Optional.of(Pattern.compile(regex)));
  }

  /** Empty, or a valid regular expression. */
  private static final ConfigDef.Validator REGEX =
      new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
          String text = (String) value;
          if (text != null && !text.isEmpty()) {
            try {
              Pattern.compile(text);
            } catch (PatternSyntaxException e) {
              throw new ConfigException(
                  name, value, "not a regular expression: " + e.getDescription());
            }
          }
        }

        @Override
        public String toString() {
          return "empty or a Java regular expression";
        }
      };
}
