package io.skippr.connect.iceberg;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.kafka.common.TopicPartition;

/**
 * What a snapshot the registrar commits says in its summary: the lake, the ids of the changes it
 * registers (compaction ids of units, ids of compactions and expiries), each TP's epoch and offset
 * range. The guard reads them back to find a change registered before.
 *
 * @param lakeId the lake's identity
 * @param ids the change ids
 * @param epochs each TP's writer epoch, by {@code topic+partition}
 */
record SnapshotMarks(String lakeId, Set<String> ids, Map<String, Long> epochs) {
  static final String LAKE_ID = "skippr.lake-id";
  static final String IDS = "skippr.ids";
  static final String EPOCHS = "skippr.epochs";
  static final String RANGES = "skippr.tp-ranges";
  static final String KIND = "skippr.kind";
  static final String OWNER = "skippr.owner";

  /** The marks of a snapshot, or null when the registrar of no lake committed it. */
  static SnapshotMarks of(Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary();
    String lake = summary == null ? null : summary.get(LAKE_ID);
    if (lake == null) {
      return null;
    }
    Set<String> ids = new LinkedHashSet<>(split(summary.get(IDS)));
    Map<String, Long> epochs = new HashMap<>();
    for (String pair : split(summary.get(EPOCHS))) {
      int eq = pair.lastIndexOf('=');
      if (eq > 0) {
        epochs.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
      }
    }
    return new SnapshotMarks(lake, Set.copyOf(ids), Map.copyOf(epochs));
  }

  /** {@code topic+partition}, as TPs are named in the marks (Kafka topics cannot hold '+'). */
  static String tpKey(TopicPartition tp) {
    return tp.topic() + "+" + tp.partition();
  }

  static String join(Collection<String> values) {
    return String.join(",", values);
  }

  private static Collection<String> split(String value) {
    if (value == null || value.isEmpty()) {
      return Set.of();
    }
    return Arrays.asList(value.split(","));
  }
}
