package io.skippr.connect.cli.audit;

import io.skippr.connect.common.Messages;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** What Kafka holds: the group's committed offsets, and each partition's log start and ends. */
final class KafkaReader implements AutoCloseable {
  private final Admin admin;
  private final String bootstrap;
  private final Duration timeout;

  KafkaReader(Map<String, Object> clientProps, Duration timeout) {
    Map<String, Object> props = new HashMap<>(clientProps);
    props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "skippr-audit");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    this.admin = Admin.create(props);
    this.bootstrap = String.valueOf(props.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    this.timeout = timeout;
  }

  /** The group's committed offsets; empty when the group has none. */
  Map<TopicPartition, Long> groupOffsets(String group) {
    Map<TopicPartition, OffsetAndMetadata> committed;
    try {
      committed = get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
    } catch (AuditException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return Map.of();
      }
      throw e;
    }
    Map<TopicPartition, Long> offsets = new HashMap<>();
    committed.forEach(
        (tp, offset) -> {
          if (offset != null) {
            offsets.put(tp, offset.offset());
          }
        });
    return offsets;
  }

  /** The names of the topics that match a pattern (a connector's {@code topics.regex}). */
  Set<String> topicsMatching(Pattern pattern) {
    Set<String> matching = new TreeSet<>();
    for (String topic : get(admin.listTopics().names())) {
      if (pattern.matcher(topic).matches()) {
        matching.add(topic);
      }
    }
    return matching;
  }

  /**
   * Every partition of the topics that exist, with its offsets; topics Kafka lacks are left out.
   */
  Map<TopicPartition, KafkaTp> partitions(Collection<String> topics) {
    Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (Map.Entry<String, KafkaFuture<TopicDescription>> topic :
        admin.describeTopics(topics).topicNameValues().entrySet()) {
      TopicDescription description;
      try {
        description = get(topic.getValue());
      } catch (AuditException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          continue;
        }
        throw e;
      }
      description
          .partitions()
          .forEach(
              p -> {
                TopicPartition tp = new TopicPartition(topic.getKey(), p.partition());
                earliest.put(tp, OffsetSpec.earliest());
                latest.put(tp, OffsetSpec.latest());
              });
    }
    Map<TopicPartition, KafkaTp> partitions = new HashMap<>();
    if (earliest.isEmpty()) {
      return partitions;
    }
    var starts = get(admin.listOffsets(earliest).all());
    var ends = get(admin.listOffsets(latest).all());
    var stable =
        get(admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all());
    for (TopicPartition tp : earliest.keySet()) {
      partitions.put(tp, new KafkaTp(offset(starts, tp), offset(ends, tp), offset(stable, tp)));
    }
    return partitions;
  }

  private static long offset(
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> r, TopicPartition tp) {
    return r.get(tp).offset();
  }

  private <T> T get(KafkaFuture<T> future) {
    try {
      return future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AuditException(
          "cannot read Kafka at " + bootstrap + ": " + Messages.oneLine(e.getCause()),
          e.getCause());
    } catch (TimeoutException e) {
      throw new AuditException(
          "Kafka at " + bootstrap + " did not answer within " + timeout.toSeconds() + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuditException("interrupted while reading Kafka", e);
    }
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}
