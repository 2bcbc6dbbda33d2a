package io.skippr.connect.it;

import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The connectors of {@link LocalStackSoak}: HTTP ingest (line protocol and JSON), a file source and
 * a poll source, all exactly once, and four lake sinks, each with a lake of its own, merging small
 * files every 20 s into files of about 1 MiB (the smallest target) and deleting merged inputs after
 * a minute. Three sinks keep everything (their lakes are checked against the sources); the fourth
 * lands the JSON stream a second time, by minute of arrival, and expires its minutes after {@value
 * #RETENTION_MS} ms.
 */
final class SoakConnectors {
  static final String INGEST = "soak-ingest";
  static final String FILES = "soak-files";
  static final String POLL = "soak-poll";

  static final String LP_LAKE = "soak-lp-lake";
  static final String JSON_LAKE = "soak-json-lake";
  static final String EXPIRING_LAKE = "soak-json-expiring";
  static final String SOURCES_LAKE = "soak-sources-lake";
  static final List<String> SINKS = List.of(LP_LAKE, JSON_LAKE, EXPIRING_LAKE, SOURCES_LAKE);
  static final List<String> SOURCES = List.of(INGEST, FILES, POLL);
  static final List<String> CONNECTORS =
      List.of(INGEST, FILES, POLL, LP_LAKE, JSON_LAKE, EXPIRING_LAKE, SOURCES_LAKE);

  /** Line protocol measurement {@code soak}: topic {@code ingest.soak}. */
  static final String MEASUREMENT = "soak";

  static final String LP_TOPIC = "ingest.soak";

  /** JSON stream {@code soak}: topic {@code events.soak}. */
  static final String STREAM = "soak";

  static final String JSON_TOPIC = "events.soak";
  static final String FILE_TOPIC = "soak.files";
  static final String ORDERS_TOPIC = "soak.orders";
  static final String INVOICES_TOPIC = "soak.invoices";
  static final int INGEST_PARTITIONS = 3;
  static final int FILE_PARTITIONS = 2;

  static final long TARGET_BYTES = 1024 * 1024;
  static final long RETENTION_MS = 120_000;
  static final long MINUTE_MS = 60_000;

  /** The topics each sink reads. */
  static final Map<String, List<String>> SINK_TOPICS =
      Map.of(
          LP_LAKE, List.of(LP_TOPIC),
          JSON_LAKE, List.of(JSON_TOPIC),
          EXPIRING_LAKE, List.of(JSON_TOPIC),
          SOURCES_LAKE, List.of(FILE_TOPIC, ORDERS_TOPIC, INVOICES_TOPIC));

  private SoakConnectors() {}

  static Map<String, String> ingest(int port, Path state) {
    Map<String, String> c = IngestChaosIT.ingestConfig(port, state);
    c.put("json.topic.prefix", "events.");
    return c;
  }

  static Map<String, String> files(Path inbox, Path state) {
    return FileSourceConfigs.source(
        inbox,
        "ndjson",
        FILE_TOPIC,
        "file.completed.policy",
        "delete",
        "store.rocksdb.path",
        state.toString());
  }

  static Map<String, String> poll(PollFixtureApi api, Path state) {
    return PollLake.pollConfig(api, "soak.", state, Map.of("http.params", "limit=50"));
  }

  /**
   * Line protocol rows into {@code lake}, by day of their time (one path: all rows are of a day).
   */
  static Map<String, String> lineProtocolLake(Path lake, Path state) {
    Map<String, String> c = IngestChaosIT.sinkConfig(lake, state);
    c.remove("topics.regex");
    c.put("topics", LP_TOPIC);
    return maintained(c);
  }

  /** The JSON rows into {@code lake}, by Kafka partition. */
  static Map<String, String> jsonLake(Path lake, Path state) {
    Map<String, String> c = IngestChaosIT.sinkConfig(lake, state);
    c.remove("topics.regex");
    c.put("topics", JSON_TOPIC);
    List.of("partitioner.class", "timestamp.extractor", "timestamp.field", "path.format")
        .forEach(c::remove);
    return maintained(c);
  }

  /** The JSON rows again, by minute of arrival (UTC), each minute expired two minutes after. */
  static Map<String, String> expiringLake(Path lake, Path state) {
    Map<String, String> c = IngestChaosIT.sinkConfig(lake, state);
    c.remove("topics.regex");
    c.remove("timestamp.field");
    c.put("topics", JSON_TOPIC);
    c.put("timestamp.extractor", "Record");
    c.put("path.format", "'dt'=YYYY-MM-dd/'hour'=HH/'minute'=mm");
    c.put("partition.duration.ms", Long.toString(MINUTE_MS));
    c.put("timezone", "UTC");
    c.put("retention.ms", Long.toString(RETENTION_MS));
    return maintained(c);
  }

  /** The file and poll topics (schemaless JSON) into {@code lake}, by Kafka partition. */
  static Map<String, String> sourcesLake(Path lake, Path state) {
    Map<String, String> c =
        new HashMap<>(
            FileSourceConfigs.sink(lake, String.join(",", SINK_TOPICS.get(SOURCES_LAKE)), false));
    c.put("store.rocksdb.path", state.toString());
    return maintained(c);
  }

  private static Map<String, String> maintained(Map<String, String> c) {
    c.put("flush.size", "20000");
    c.put("rotate.schedule.interval.ms", "3000");
    c.put("compaction.enabled", "true");
    c.put("compaction.interval.ms", "20000");
    c.put("compaction.min.files", "5");
    c.put("compaction.target.bytes", Long.toString(TARGET_BYTES));
    c.put("compaction.grace.ms", "60000");
    return c;
  }
}
