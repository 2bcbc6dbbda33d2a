package io.skippr.connect.source.poll.config;

import io.skippr.connect.source.common.TopicNames;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Where records sit in a response and which topics they go to. */
public final class RecordsConfig {

  public static final String TOPIC = "topic";
  public static final String RECORDS_POINTER = "records.pointer";
  public static final String KEY_POINTER = "record.key.pointer";
  public static final String REJECTION_TOPIC = "rejection.topic";

  /** Default rejection topic suffix, appended to the endpoint's topic. */
  public static final String REJECTION_SUFFIX = "_rejections";

  /**
   * @param topic where records go
   * @param recordsPointer JSON pointer to the array of records; empty: the body is the array
   * @param keyPointer JSON pointer inside a record to its key; empty: no key
   * @param rejectionTopic where records that cannot be positioned go, with the reason
   */
  public record Values(
      String topic, String recordsPointer, String keyPointer, String rejectionTopic) {}

  private RecordsConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            TOPIC,
            Type.STRING,
            "",
            TopicNames.EMPTY_OR_LEGAL,
            Importance.HIGH,
            "Topic the records go to. Required (here or per endpoint).")
        .define(
            RECORDS_POINTER,
            Type.STRING,
            "",
            Validators.JSON_POINTER,
            Importance.HIGH,
            "JSON pointer to the array of records in a response, e.g. /data. Empty: the body"
                + " itself is the array.")
        .define(
            KEY_POINTER,
            Type.STRING,
            "",
            Validators.JSON_POINTER,
            Importance.MEDIUM,
            "JSON pointer, inside a record, to its key (e.g. /id). Empty: records have no key.")
        .define(
            REJECTION_TOPIC,
            Type.STRING,
            "",
            TopicNames.EMPTY_OR_LEGAL,
            Importance.LOW,
            "Topic for records without a cursor (or tie-breaker) value, with the page URL (secrets"
                + " redacted), the record's index and the reason; the page's other records still"
                + " land. Empty means {topic}"
                + REJECTION_SUFFIX
                + ".");
  }

  public static Values from(AbstractConfig c) {
    String topic = c.getString(TOPIC);
    String rejection = c.getString(REJECTION_TOPIC);
    return new Values(
        topic,
        c.getString(RECORDS_POINTER),
        c.getString(KEY_POINTER),
        rejection.isEmpty() ? topic + REJECTION_SUFFIX : rejection);
  }
}
