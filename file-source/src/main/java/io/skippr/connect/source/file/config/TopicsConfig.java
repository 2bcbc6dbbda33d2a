package io.skippr.connect.source.file.config;

import io.skippr.connect.source.common.TopicNames;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Where records and rejected lines go. */
public final class TopicsConfig {

  public static final String TOPIC = "topic";
  public static final String PREFIX = "topic.prefix";
  public static final String REJECTIONS_TOPIC = "rejections.topic";

  /**
   * @param topic the topic of ndjson and csv records; for line protocol, when non-empty, the one
   *     topic of every measurement
   * @param prefix line protocol: prefix of the per-measurement topics
   * @param rejectionsTopic where rejected lines go, or null: only counted and logged
   */
  public record Values(String topic, String prefix, String rejectionsTopic) {}

  private TopicsConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            TOPIC,
            Type.STRING,
            "",
            TopicNames.EMPTY_OR_LEGAL,
            Importance.HIGH,
            "Topic of the records of ndjson and csv files (required for them). For lineprotocol,"
                + " when set, every measurement goes to this one topic and the measurement travels"
                + " in the key and the 'measurement' header, as with the HTTP ingest source.")
        .define(
            PREFIX,
            Type.STRING,
            "",
            TopicNames.EMPTY_OR_LEGAL,
            Importance.HIGH,
            "lineprotocol: points go to {topic.prefix}{measurement}, named as the HTTP ingest"
                + " source names them (a name of ASCII letters, digits, '_' and '-' as it is, any"
                + " other one escaped, one topic per name), so both land in the same tables.")
        .define(
            REJECTIONS_TOPIC,
            Type.STRING,
            "",
            TopicNames.EMPTY_OR_LEGAL,
            Importance.MEDIUM,
            "Topic for rejected lines (malformed, over-long, invalid UTF-8, type conflicts) with"
                + " the file, line number, byte offset and reason. Empty: rejections are only"
                + " counted (metric rejected-records-total) and logged.");
  }

  public static Values from(AbstractConfig c) {
    String rejections = c.getString(REJECTIONS_TOPIC);
    return new Values(
        c.getString(TOPIC), c.getString(PREFIX), rejections.isEmpty() ? null : rejections);
  }
}
