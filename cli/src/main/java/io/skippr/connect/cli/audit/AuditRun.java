package io.skippr.connect.cli.audit;

import io.skippr.connect.sink.storage.LakeStorage;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads what the audit compares, in an order that a running connector cannot turn into a false
 * finding: the group's offsets first (the sink commits offsets only after the units they follow),
 * then the logs, then Kafka's offsets (which only grow), then storage (files a log listed were
 * complete before it listed them), then the logs again for files no log listed yet.
 */
final class AuditRun {
  private final AuditTarget target;
  private final Duration timeout;

  AuditRun(AuditTarget target, Duration timeout) {
    this.target = target;
    this.timeout = timeout;
  }

  AuditReport run() throws IOException {
    try (LakeStorage storage = target.lakeConfig().storage().open()) {
      LakeReader lake = new LakeReader(storage);
      if (!target.hasKafka()) {
        return withoutKafka(lake);
      }
      try (KafkaReader kafka = new KafkaReader(target.kafka(), timeout);
          KafkaProbe probe = new KafkaProbe(target.kafka(), timeout)) {
        Map<TopicPartition, Long> group =
            target.group() == null ? Map.of() : kafka.groupOffsets(target.group());
        LakeReader.Snapshot snapshot = lake.read();
        Set<String> topics = new TreeSet<>(target.topics());
        if (target.topicsRegex() != null) {
          topics.addAll(kafka.topicsMatching(target.topicsRegex()));
        }
        snapshot.logs().stream().filter(l -> !l.isSync()).forEach(l -> topics.add(l.topic()));
        group.keySet().forEach(tp -> topics.add(tp.topic()));
        Map<TopicPartition, KafkaTp> partitions = kafka.partitions(topics);
        return audit(lake, snapshot, partitions, group, probe);
      }
    }
  }

  private AuditReport withoutKafka(LakeReader lake) throws IOException {
    LakeReader.Snapshot snapshot = lake.read();
    Set<String> topics =
        snapshot.logs().stream()
            .filter(l -> !l.isSync())
            .map(TpLake::topic)
            .collect(Collectors.toCollection(TreeSet::new));
    topics.addAll(target.topics());
    if (!topics.isEmpty() || target.topicsRegex() != null) {
      throw new AuditException(
          "comparing with Kafka needs --bootstrap-servers"
              + (topics.isEmpty() ? "" : " (the lake holds the topics " + topics + ")"));
    }
    RecordProbe none =
        (tp, from, to) -> {
          throw new IllegalStateException("no Kafka to probe for " + tp);
        };
    return audit(lake, snapshot, Map.of(), Map.of(), none);
  }

  private AuditReport audit(
      LakeReader lake,
      LakeReader.Snapshot snapshot,
      Map<TopicPartition, KafkaTp> partitions,
      Map<TopicPartition, Long> group,
      RecordProbe probe)
      throws IOException {
    if (snapshot.logs().isEmpty() && partitions.isEmpty()) {
      throw new AuditException(
          "no TP log under "
              + lake.location()
              + "_skippr/log/ and no Kafka topic to compare: is that the lake's topics.dir?");
    }
    Set<String> stored = lake.stored(snapshot.tables());
    LakeReader.Reread reread = lake.reread(snapshot.logs(), stored);
    return LakeAudit.audit(
        new LakeAudit.Inputs(
            target.connector(),
            target.group(),
            lake.location(),
            lake.identity(),
            snapshot.logs(),
            partitions,
            group,
            stored,
            reread),
        probe);
  }
}
