package io.skippr.connect.cli;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.distributed.DistributedHerder;

/** A Connect distributed worker whose REST API listens on 127.0.0.1. */
final class LocalWorker implements AutoCloseable {
  private final Map<String, String> props = new HashMap<>();
  private Connect<DistributedHerder> connect;

  LocalWorker(
      String bootstrapServers, int restPort, Path pluginDir, Map<String, String> overrides) {
    props.put("bootstrap.servers", bootstrapServers);
    props.put("group.id", "skippr-local");
    props.put("listeners", "http://127.0.0.1:" + restPort);
    props.put("plugin.path", pluginDir.toString());
    props.put("plugin.discovery", "service_load");
    props.put("config.storage.topic", "skippr-local-configs");
    props.put("offset.storage.topic", "skippr-local-offsets");
    props.put("status.storage.topic", "skippr-local-status");
    props.put("config.storage.replication.factor", "1");
    props.put("offset.storage.replication.factor", "1");
    props.put("status.storage.replication.factor", "1");
    props.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("exactly.once.source.support", "enabled");
    // Sources write in transactions: every sink on this worker reads committed records only.
    props.put("consumer.isolation.level", "read_committed");
    props.put("offset.flush.interval.ms", "5000");
    // Connect's file config provider lets example configs reference local files.
    props.put("config.providers", "file,env");
    props.put(
        "config.providers.file.class",
        "org.apache.kafka.common.config.provider.FileConfigProvider");
    props.put(
        "config.providers.env.class",
        "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
    props.putAll(overrides);
  }

  void start() {
    connect = new ConnectDistributed().startConnect(props);
  }

  @Override
  public void close() {
    if (connect != null) {
      connect.stop();
      connect.awaitStop();
      connect = null;
    }
  }
}
