package io.skippr.connect.cli.audit;

import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
  private final boolean verifyFiles;

  /**
   * @param verifyFiles whether to read every live file and compare it with its commit
   */
  AuditRun(AuditTarget target, Duration timeout, boolean verifyFiles) {
    this.target = target;
    this.timeout = timeout;
    this.verifyFiles = verifyFiles;
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
        LakeReader.Identity identity = lake.identity();
        LakeReader.Snapshot snapshot = lake.read(identity.id());
        Set<String> topics = new TreeSet<>(target.topics());
        if (target.topicsRegex() != null) {
          topics.addAll(kafka.topicsMatching(target.topicsRegex()));
        }
        topics.addAll(kafkaTopics(snapshot));
        group.keySet().forEach(tp -> topics.add(tp.topic()));
        Map<TopicPartition, KafkaTp> partitions = kafka.partitions(topics);
        return audit(lake, identity, snapshot, partitions, group, probe);
      }
    }
  }

  /** The Kafka topics the lake has logs of, readable or not. */
  private static Set<String> kafkaTopics(LakeReader.Snapshot snapshot) {
    Set<String> topics = new TreeSet<>();
    snapshot.logs().stream().filter(l -> !l.isSync()).forEach(l -> topics.add(l.topic()));
    snapshot.damaged().keySet().stream()
        .map(TopicPartition::topic)
        .filter(t -> !t.startsWith(TpLake.SYNC_PREFIX))
        .forEach(topics::add);
    return topics;
  }

  private AuditReport withoutKafka(LakeReader lake) throws IOException {
    LakeReader.Identity identity = lake.identity();
    LakeReader.Snapshot snapshot = lake.read(identity.id());
    Set<String> topics = kafkaTopics(snapshot);
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
    return audit(lake, identity, snapshot, Map.of(), Map.of(), none);
  }

  private AuditReport audit(
      LakeReader lake,
      LakeReader.Identity identity,
      LakeReader.Snapshot snapshot,
      Map<TopicPartition, KafkaTp> partitions,
      Map<TopicPartition, Long> group,
      RecordProbe probe)
      throws IOException {
    if (snapshot.logs().isEmpty() && snapshot.damaged().isEmpty() && partitions.isEmpty()) {
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
            identity.id(),
            snapshot.logs(),
            partitions,
            group,
            stored,
            reread,
            damage(lake, identity, snapshot, stored)),
        probe);
  }

  /** What the sink would refuse: the identity, stored schemas, logs, and files when verified. */
  private LakeAudit.Damage damage(
      LakeReader lake,
      LakeReader.Identity identity,
      LakeReader.Snapshot snapshot,
      Set<String> stored)
      throws IOException {
    List<Finding> whole = new ArrayList<>();
    if (identity.problem() != null) {
      whole.add(identity.problem());
    }
    whole.addAll(lake.schemas());
    whole.addAll(lake.policies());
    Map<TopicPartition, List<Finding>> byTp = new HashMap<>();
    snapshot.damaged().forEach((tp, finding) -> byTp.put(tp, new ArrayList<>(List.of(finding))));
    if (verifyFiles) {
      lake.verify(snapshot, stored)
          .forEach((tp, found) -> byTp.computeIfAbsent(tp, t -> new ArrayList<>()).addAll(found));
    }
    Set<TopicPartition> unreadable = new HashSet<>();
    snapshot.damaged().keySet().stream().filter(snapshot::unreadable).forEach(unreadable::add);
    return new LakeAudit.Damage(whole, byTp, unreadable);
  }
}
