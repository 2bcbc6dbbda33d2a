package io.skippr.connect.cli.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * Kafka as the audit sees it, in memory: which offsets of each TP hold a record a read_committed
 * consumer returns (every other offset below the end is a marker, an aborted or a compacted
 * record). Records every probe it answers.
 */
final class FakeKafka implements RecordProbe {
  private final Map<TopicPartition, TreeSet<Long>> records = new HashMap<>();
  final List<String> probes = new ArrayList<>();

  /** Records at offsets {@code [from, to]}. */
  FakeKafka records(String topic, int partition, long from, long to) {
    TreeSet<Long> offsets =
        records.computeIfAbsent(new TopicPartition(topic, partition), tp -> new TreeSet<>());
    for (long offset = from; offset <= to; offset++) {
      offsets.add(offset);
    }
    return this;
  }

  @Override
  public Result firstRecord(TopicPartition tp, long from, long to) {
    probes.add(tp + ":" + from + ".." + to);
    Long first = records.getOrDefault(tp, new TreeSet<>()).ceiling(from);
    return first != null && first <= to ? Result.found(first) : Result.none();
  }
}
