package io.skippr.connect.it.soak;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * The lag of a sink connector's consumer group ({@code connect-<connector>}) as an operator's
 * AdminClient sees it: per partition of its topics, the last stable offset (read_committed: open
 * transactions do not count) minus the group's committed offset (0 before its first commit),
 * summed.
 */
public final class GroupLag implements AutoCloseable {
  private static final long TIMEOUT_S = 30;

  private final Admin admin;

  public GroupLag(String bootstrapServers) {
    this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }

  /** Records of {@code topics} the sink connector's group has not committed yet. */
  public long lag(String connector, Collection<String> topics)
      throws ExecutionException, InterruptedException, TimeoutException {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    Map<String, TopicDescription> described =
        admin.describeTopics(topics).allTopicNames().get(TIMEOUT_S, TimeUnit.SECONDS);
    described.forEach(
        (topic, description) ->
            description
                .partitions()
                .forEach(
                    p ->
                        latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest())));
    var ends =
        admin
            .listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
            .all()
            .get(TIMEOUT_S, TimeUnit.SECONDS);
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin
            .listConsumerGroupOffsets("connect-" + connector)
            .partitionsToOffsetAndMetadata()
            .get(TIMEOUT_S, TimeUnit.SECONDS);
    long lag = 0;
    for (var end : ends.entrySet()) {
      OffsetAndMetadata at = committed.get(end.getKey());
      lag += Math.max(0, end.getValue().offset() - (at == null ? 0 : at.offset()));
    }
    return lag;
  }

  @Override
  public void close() {
    admin.close();
  }
}
