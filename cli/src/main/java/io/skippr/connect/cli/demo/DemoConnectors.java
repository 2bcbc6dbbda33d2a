package io.skippr.connect.cli.demo;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The three connectors of the demo: HTTP ingest (measurements into {@code demo.*} topics, JSON
 * streams into {@code demo.events.*}), and two lake sinks into one lake: measurements partitioned
 * by their time column, streams by arrival. Both sinks read committed records only and send rows
 * they cannot hold to the dead letter queue {@value #DLQ}, so one bad row never stops a table.
 */
final class DemoConnectors {
  static final String SOURCE = "demo-ingest";
  static final String SINK = "demo-lake";
  static final String EVENTS_SINK = "demo-events-lake";
  static final String TOPIC_PREFIX = "demo.";
  static final String JSON_TOPIC_PREFIX = "demo.events.";
  static final String DLQ = "demo-dlq";
  static final int COMPACTION_INTERVAL_MS = 10_000;
  static final int COMPACTION_GRACE_MS = 30_000;
  // Measurement topics: a mapped name never holds '.', and the rejection topic starts with '_'.
  static final String MEASUREMENTS_REGEX = "demo\\.[^_.][^.]*";
  static final String EVENTS_REGEX = "demo\\.events\\..+";

  private DemoConnectors() {}

  static Map<String, String> source(int port) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", "1");
    config.put("server.bind.address", "127.0.0.1");
    config.put("server.port", Integer.toString(port));
    config.put("topic.prefix", TOPIC_PREFIX);
    config.put("json.topic.prefix", JSON_TOPIC_PREFIX);
    // One transaction per batch of requests, each answered after its commit.
    config.put("exactly.once.support", "required");
    config.put("transaction.boundary", "connector");
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    putConverters(config);
    return config;
  }

  /**
   * Measurements, in daily directories by each point's time column. Small units and a 2 s scheduled
   * rotation, so files appear within seconds.
   */
  static Map<String, String> sink(Path lake, Path state) {
    Map<String, String> config = sinkBase(lake, state, MEASUREMENTS_REGEX);
    config.put("timestamp.extractor", "RecordField");
    config.put("timestamp.field", "time");
    return config;
  }

  /** JSON streams, in daily directories by the time each row arrived (the record timestamp). */
  static Map<String, String> eventsSink(Path lake, Path state) {
    Map<String, String> config = sinkBase(lake, state, EVENTS_REGEX);
    config.put("timestamp.extractor", "Record");
    return config;
  }

  private static Map<String, String> sinkBase(Path lake, Path state, String topicsRegex) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics.regex", topicsRegex);
    config.put("topics.dir", lake.toString());
    config.put("flush.size", "1000");
    config.put("rotate.schedule.interval.ms", "2000");
    // A unit every 2 s is a file every 2 s per table and day: merge them every 10 s (the merged
    // inputs leave the table at once) and delete the merged inputs 30 s later, so a running demo's
    // lake keeps a bounded number of files.
    config.put("compaction.interval.ms", Integer.toString(COMPACTION_INTERVAL_MS));
    config.put("compaction.grace.ms", Integer.toString(COMPACTION_GRACE_MS));
    config.put("partitioner.class", "time");
    config.put("path.format", "'dt'=YYYY-MM-dd");
    config.put("store.rocksdb.path", state.toString());
    // Topics created later (a new measurement) are picked up within seconds, not minutes.
    config.put("consumer.override.metadata.max.age.ms", "2000");
    config.put("consumer.override.isolation.level", "read_committed");
    config.put("errors.tolerance", "all");
    config.put("errors.deadletterqueue.topic.name", DLQ);
    config.put("errors.deadletterqueue.topic.replication.factor", "1");
    config.put("errors.deadletterqueue.context.headers.enable", "true");
    putConverters(config);
    return config;
  }

  private static void putConverters(Map<String, String> config) {
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "io.skippr.connect.json.StreamingJsonConverter");
    config.put("value.converter.schemas.enable", "true");
  }
}
