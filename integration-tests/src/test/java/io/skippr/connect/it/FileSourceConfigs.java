package io.skippr.connect.it;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Connector configs of the file source tests: exactly-once sources, read_committed lake sinks. */
final class FileSourceConfigs {

  private FileSourceConfigs() {}

  /** A file source that requires exactly-once support from the worker. */
  static Map<String, String> source(Path dir, String format, String topic, String... more) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.source.file.FileSourceConnector");
    config.put("tasks.max", "2");
    config.put("file.dir", dir.toString());
    config.put("file.format", format);
    config.put("topic", topic);
    config.put("file.min.age.ms", "500");
    config.put("poll.interval.ms", "200");
    config.put("exactly.once.support", "required");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("state.mirror", "off");
    for (int i = 0; i < more.length; i += 2) {
      config.put(more[i], more[i + 1]);
    }
    return config;
  }

  /** A lake sink of schemaless JSON topics that reads only committed transactions. */
  static Map<String, String> sink(Path lake, String topics, boolean schemas) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", topics);
    config.put("topics.dir", lake.toString());
    config.put("store.rocksdb.path", lake.resolveSibling(lake.getFileName() + "-state").toString());
    config.put("flush.size", "2000");
    config.put("rotate.schedule.interval.ms", "1000");
    config.put("include.kafka.metadata", "true");
    config.put("consumer.override.isolation.level", "read_committed");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", Boolean.toString(schemas));
    config.put("errors.tolerance", "none");
    return config;
  }

  /** An NDJSON line of order {@code id}, like an export's. */
  static String order(long id) {
    return "{\"id\":"
        + id
        + ",\"customer\":\"c-"
        + (id % 977)
        + "\",\"amount\":"
        + (id % 10_000) / 100.0
        + ",\"status\":\""
        + (id % 5 == 0 ? "refunded" : "paid")
        + "\",\"at\":\"2026-01-0"
        + (1 + id % 9)
        + "T10:00:00Z\"}\n";
  }
}
