package io.skippr.connect.transforms;

import io.skippr.connect.common.ProcessEnvironment;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.errors.DataException;

/**
 * Routes each record to the topic of its namespace, {@code {topic}.{namespace}}, where the
 * namespace is the value of one or more fields of the record value (Struct or Map). The lake sink
 * writes one table per topic, so each namespace becomes its own table.
 *
 * <p>Value only: the namespace is read from the record value. Key, schema, headers, partition and
 * timestamp pass through unchanged. See {@link NamespaceConfig} for the settings; {@value
 * NamespaceConfig#FIELDS} falls back to the environment variable {@value
 * NamespaceConfig#FIELDS_ENV} (comma-separated).
 */
public class NamespaceRouter<R extends ConnectRecord<R>> extends SkipprTransformation<R> {
  public static final String OVERVIEW_DOC =
      "Routes each record to {topic}.{namespace}, the namespace being the value(s) of"
          + " namespace.fields in the record value; one table per namespace in the lake.";

  public static final ConfigDef CONFIG_DEF =
      NamespaceConfig.define(
          new ConfigDef(),
          "Dotted paths of the value fields whose values name the namespace, e.g. 'type' or"
              + " 'region,meta.kind'. When empty, the environment variable "
              + NamespaceConfig.FIELDS_ENV
              + " (comma-separated) is used; one of the two is required.");

  private final Map<String, String> env;
  private NamespaceNames names;

  public NamespaceRouter() {
    this(ProcessEnvironment.variables());
  }

  /** With another environment than the process's (tests). */
  NamespaceRouter(Map<String, String> env) {
    this.env = Objects.requireNonNull(env, "env");
  }

  @Override
  public void configure(Map<String, ?> props) {
    NamespaceNames configured = NamespaceConfig.from(new AbstractConfig(CONFIG_DEF, props), env);
    if (!configured.enabled()) {
      throw new ConfigException(
          NamespaceConfig.FIELDS
              + " is required: set it, or the environment variable "
              + NamespaceConfig.FIELDS_ENV);
    }
    names = configured;
  }

  @Override
  public R apply(R record) {
    String topic;
    try {
      topic = names.route(record.topic(), record.value());
    } catch (DataException e) {
      throw new DataException("NamespaceRouter: topic " + record.topic() + ": " + e.getMessage());
    }
    if (topic.equals(record.topic())) {
      return record;
    }
    return record.newRecord(
        topic,
        record.kafkaPartition(),
        record.keySchema(),
        record.key(),
        record.valueSchema(),
        record.value(),
        record.timestamp());
  }

  @Override
  public ConfigDef config() {
    return CONFIG_DEF;
  }
}
