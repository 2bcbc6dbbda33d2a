package io.skippr.connect.cli.demo;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The two connectors of the demo: HTTP ingest into {@code demo.*} topics, and the lake sink. */
final class DemoConnectors {
  static final String SOURCE = "demo-ingest";
  static final String SINK = "demo-lake";
  static final String TOPIC_PREFIX = "demo.";
  // Every ingest topic except the rejection topic (demo._rejections).
  static final String TOPICS_REGEX = "demo\\.[^_].*";

  private DemoConnectors() {}

  static Map<String, String> source(int port) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", "1");
    config.put("server.bind.address", "127.0.0.1");
    config.put("server.port", Integer.toString(port));
    config.put("topic.prefix", TOPIC_PREFIX);
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    putConverters(config);
    return config;
  }

  /**
   * Small units and a 2 s scheduled rotation, so files appear within seconds; daily directories by
   * record time.
   */
  static Map<String, String> sink(Path lake, Path state) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics.regex", TOPICS_REGEX);
    config.put("topics.dir", lake.toString());
    config.put("flush.size", "1000");
    config.put("rotate.schedule.interval.ms", "2000");
    config.put("partitioner.class", "time");
    config.put("timestamp.extractor", "Record");
    config.put("path.format", "'dt'=YYYY-MM-dd");
    config.put("store.rocksdb.path", state.toString());
    // Topics created later (a new measurement) are picked up within seconds, not minutes.
    config.put("consumer.override.metadata.max.age.ms", "2000");
    putConverters(config);
    return config;
  }

  private static void putConverters(Map<String, String> config) {
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
  }
}
