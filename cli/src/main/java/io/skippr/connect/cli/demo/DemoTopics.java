package io.skippr.connect.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the demo's topics before the connectors start. The ingest connector would create them on
 * first write, but then the sink's consumer discovers them one by one, each time with a group
 * rebalance that reopens the partitions it already had.
 */
final class DemoTopics {
  private DemoTopics() {}

  static void create(String bootstrapServers, List<String> topics) {
    List<NewTopic> wanted = new ArrayList<>();
    topics.forEach(topic -> wanted.add(new NewTopic(topic, 1, (short) 1)));
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      for (var result : admin.createTopics(wanted).values().entrySet()) {
        try {
          result.getValue().get();
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new DemoException(
                "cannot create topic " + result.getKey() + ": " + e.getCause().getMessage(), e);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw DemoException.stopRequested();
    }
  }
}
