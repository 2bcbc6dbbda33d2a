package io.skippr.connect.it;

import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Connector configs and lake checks shared by the HTTP poll source's integration tests. */
final class PollLake {
  static final String POLL_CLASS = "io.skippr.connect.source.poll.HttpPollSourceConnector";

  private PollLake() {}

  /**
   * A poll connector with two endpoints on the fixture API: {@code orders} (token pagination) and
   * {@code invoices} (Link headers), exactly once with one transaction per page.
   */
  static Map<String, String> pollConfig(
      PollFixtureApi api, String topicPrefix, Path state, Map<String, String> overrides) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", POLL_CLASS);
    c.put("tasks.max", "2");
    c.put("exactly.once.support", "required");
    c.put("transaction.boundary", "connector");
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "false");
    c.put("endpoints", "orders,invoices");
    c.put("cursor.pointer", "/updated_at");
    c.put("cursor.tiebreak.pointer", "/id");
    c.put("cursor.param", "since");
    c.put("record.key.pointer", "/id");
    c.put("http.params", "limit=10");
    c.put("poll.interval.ms", "500");
    c.put("retry.backoff.ms", "50");
    c.put("retry.backoff.max.ms", "500");
    c.put("store.rocksdb.path", state.toString());
    c.put("endpoint.orders.topic", topicPrefix + "orders");
    c.put("endpoint.orders.http.url", api.url("/token/items"));
    c.put("endpoint.orders.records.pointer", "/items");
    c.put("endpoint.orders.pagination.mode", "token");
    c.put("endpoint.orders.pagination.next.pointer", "/next_page_token");
    c.put("endpoint.invoices.topic", topicPrefix + "invoices");
    c.put("endpoint.invoices.http.url", api.url("/link/items"));
    c.put("endpoint.invoices.pagination.mode", "next_link");
    c.put("topic.creation.default.replication.factor", "1");
    c.put("topic.creation.default.partitions", "1");
    c.putAll(overrides);
    return c;
  }

  /** The lake sink over the given topics, reading only committed transactions. */
  static Map<String, String> sinkConfig(Path lake, Path state, String topics) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    c.put("tasks.max", "1");
    c.put("topics", topics);
    c.put("topics.dir", lake.toString());
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "false");
    c.put("consumer.override.isolation.level", "read_committed");
    c.put("flush.size", "100");
    c.put("rotate.schedule.interval.ms", "1000");
    c.put("errors.tolerance", "none");
    c.put("store.rocksdb.path", state.toString());
    return c;
  }

  /** How often each id is in a table of the lake (empty when it has no files yet). */
  static Map<Long, Long> idCounts(DuckDbLake duck, String table) {
    Map<Long, Long> counts = new TreeMap<>();
    if (!duck.hasFiles(table)) {
      return counts;
    }
    for (Map<String, Object> row :
        duck.query("select id, count(*) as n from ${table:" + table + "} group by id")) {
      counts.put(((Number) row.get("id")).longValue(), ((Number) row.get("n")).longValue());
    }
    return counts;
  }

  /** Every id exactly once. */
  static Map<Long, Long> once(List<Long> ids) {
    Map<Long, Long> counts = new TreeMap<>();
    ids.forEach(id -> counts.put(id, 1L));
    return counts;
  }
}
