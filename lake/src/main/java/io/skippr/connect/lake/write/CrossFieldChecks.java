package io.skippr.connect.lake.write;

import io.skippr.connect.aws.AwsCredentialsConfig;
import io.skippr.connect.aws.ConfigLookup;
import io.skippr.connect.aws.S3WriteOptionsConfig;
import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.maintenance.CompactionConfig;
import io.skippr.connect.lake.maintenance.RetentionConfig;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;
import io.skippr.connect.lake.partition.PartitioningConfig;
import io.skippr.connect.lake.partition.PathTimes;
import io.skippr.connect.lake.publish.PublishConfig;
import io.skippr.connect.lake.storage.StorageConfig;
import io.skippr.connect.state.api.StateStoreConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Checks that involve several keys, each problem attached to the key the user has to change. Runs
 * only when every key is valid on its own.
 */
final class CrossFieldChecks {
  /** The consumer override that decides whether aborted transactional records are read. */
  static final String ISOLATION_OVERRIDE = "consumer.override.isolation.level";

  private CrossFieldChecks() {}

  /** Problems by key; empty when the combination is sound. */
  static Map<String, String> problems(ConfigDef def, Map<String, String> props) {
    Map<String, String> problems = new LinkedHashMap<>();
    isolation(props, problems);
    AwsCredentialsConfig.S3.problems(ConfigLookup.of(props)).forEach(problems::putIfAbsent);
    S3WriteOptionsConfig.problems(ConfigLookup.of(props)).forEach(problems::putIfAbsent);
    StateStoreConfig.problems(props).forEach(problems::putIfAbsent);
    AbstractConfig parsed;
    try {
      parsed = new AbstractConfig(def, props, false);
    } catch (ConfigException e) {
      return problems; // single-key errors are reported by ConfigDef.validate already
    }
    try {
      StorageConfig.from(parsed);
    } catch (ConfigException e) {
      problems.putIfAbsent(keyNamedIn(e, parsed, StorageConfig.TOPICS_DIR), e.getMessage());
    }
    rotation(RotationConfig.from(parsed), problems);
    partitioning(parsed, props, problems);
    PublishConfig.problems(props).forEach(problems::putIfAbsent);
    maintenance(parsed, problems);
    return problems;
  }

  private static void maintenance(AbstractConfig parsed, Map<String, String> problems) {
    writePolicy(parsed, problems);
    retention(parsed, problems);
  }

  private static void writePolicy(AbstractConfig parsed, Map<String, String> problems) {
    WritePolicyConfig.Settings policy = WritePolicyConfig.from(parsed);
    if (policy.policy() == WritePolicyConfig.Policy.MERGE_BY_KEY) {
      if (policy.keyFields().isEmpty() && !parsed.getBoolean(FormatConfig.INCLUDE_KEY)) {
        problems.put(
            WritePolicyConfig.MERGE_KEY_FIELDS,
            "write.policy=merge_by_key needs a key: name its value fields in merge.key.fields, or"
                + " keep the record key as column __key with include.key=true.");
      }
      if (!parsed.getBoolean(CompactionConfig.ENABLED)) {
        problems.put(
            WritePolicyConfig.WRITE_POLICY,
            "write.policy=merge_by_key writes the current state when it compacts: it needs"
                + " compaction.enabled=true.");
      }
    }
  }

  private static void retention(AbstractConfig parsed, Map<String, String> problems) {
    RetentionConfig.Settings retention;
    try {
      retention = RetentionConfig.from(parsed);
    } catch (ConfigException e) {
      problems.put(RetentionConfig.RETENTION_MS, e.getMessage());
      return;
    }
    boolean timed;
    try {
      timed = PathTimes.of(PartitioningConfig.from(parsed)).isPresent();
    } catch (ConfigException e) {
      return; // reported by partitioning()
    }
    if (retention.any() && !timed) {
      problems.put(
          RetentionConfig.RETENTION_MS,
          "retention.ms expires partition paths by their time: it needs partitioner.class=time"
              + " or field+time.");
    }
    if (retention.lateWrites() == RetentionConfig.LateWrites.REJECT && !retention.any()) {
      problems.put(
          RetentionConfig.LATE_WRITE_POLICY,
          "retention.late.write.policy=reject refuses rows past retention.ms, which is not set.");
    }
  }

  /**
   * A sink reading read_uncommitted lands the records of aborted transactions (a source task killed
   * mid-transaction) beside their retried copies.
   */
  private static void isolation(Map<String, String> props, Map<String, String> problems) {
    String level = props.get(ISOLATION_OVERRIDE);
    if (level != null && level.strip().equalsIgnoreCase("read_uncommitted")) {
      problems.put(
          ISOLATION_OVERRIDE,
          "read_uncommitted makes the lake sink land records of aborted transactions (an"
              + " exactly-once source killed mid-transaction, then retried): set it to"
              + " read_committed, or leave it unset on a worker whose consumer.isolation.level is"
              + " read_committed.");
    }
  }

  private static void rotation(RotationConfig rotation, Map<String, String> problems) {
    if (!rotation.hasTrigger()) {
      problems.put(
          RotationConfig.FLUSH_SIZE,
          "No rotation trigger is set: with flush.size, flush.bytes, rotate.interval.ms and"
              + " rotate.schedule.interval.ms all off, units would be written only under memory"
              + " pressure and the last records would never be committed. Set flush.size or"
              + " rotate.schedule.interval.ms.");
    }
    if (rotation.flushBytes() > rotation.bufferMaxBytes()) {
      problems.put(
          RotationConfig.FLUSH_BYTES,
          "flush.bytes="
              + rotation.flushBytes()
              + " can never fire: the task writes units at buffer.max.bytes="
              + rotation.bufferMaxBytes()
              + " first. Lower flush.bytes or raise buffer.max.bytes.");
    }
  }

  private static void partitioning(
      AbstractConfig parsed, Map<String, String> props, Map<String, String> problems) {
    try {
      PartitioningConfig partitioning = PartitioningConfig.from(parsed);
      PartitioningConfig.Kind kind = partitioning.kind();
      boolean timed =
          kind == PartitioningConfig.Kind.TIME || kind == PartitioningConfig.Kind.FIELD_TIME;
      if (timed
          && partitioning.timestampSource() == PartitioningConfig.TimestampSource.RECORD_FIELD
          && !props.containsKey(PartitioningConfig.TIMESTAMP_FIELD)) {
        problems.put(
            PartitioningConfig.TIMESTAMP_FIELD,
            "timestamp.extractor=RecordField needs timestamp.field: the record field that holds"
                + " each row's time.");
      }
    } catch (ConfigException e) {
      problems.put(keyNamedIn(e, parsed, PartitioningConfig.PARTITIONER_CLASS), e.getMessage());
    }
  }

  /** The key a fragment's ConfigException names ("... for configuration KEY: ..."). */
  private static String keyNamedIn(ConfigException e, AbstractConfig parsed, String otherwise) {
    String message = String.valueOf(e.getMessage());
    for (String key : parsed.values().keySet()) {
      if (message.contains("configuration " + key + ":")
          || message.contains("configuration " + key + " ")) {
        return key;
      }
    }
    return otherwise;
  }
}
