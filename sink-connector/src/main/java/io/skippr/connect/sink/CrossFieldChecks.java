package io.skippr.connect.sink;

import io.skippr.connect.sink.buffer.RotationConfig;
import io.skippr.connect.sink.partition.PartitioningConfig;
import io.skippr.connect.sink.publish.PublishConfig;
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
  private CrossFieldChecks() {}

  /** Problems by key; empty when the combination is sound. */
  static Map<String, String> problems(ConfigDef def, Map<String, String> props) {
    Map<String, String> problems = new LinkedHashMap<>();
    AbstractConfig parsed;
    try {
      parsed = new AbstractConfig(def, props, false);
    } catch (ConfigException e) {
      return problems; // single-key errors are reported by ConfigDef.validate already
    }
    rotation(RotationConfig.from(parsed), problems);
    partitioning(parsed, props, problems);
    PublishConfig.problems(props).forEach(problems::putIfAbsent);
    return problems;
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
      problems.put(keyNamedIn(e, parsed), e.getMessage());
    }
  }

  /** The key a fragment's ConfigException names ("... for configuration KEY: ..."). */
  private static String keyNamedIn(ConfigException e, AbstractConfig parsed) {
    String message = String.valueOf(e.getMessage());
    for (String key : parsed.values().keySet()) {
      if (message.contains("configuration " + key + ":")
          || message.contains("configuration " + key + " ")) {
        return key;
      }
    }
    return PartitioningConfig.PARTITIONER_CLASS;
  }
}
