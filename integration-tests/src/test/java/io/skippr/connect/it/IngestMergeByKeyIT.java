package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's retry writes a request again, and both copies are committed records with the same key
 * (the point's identity). A lake sink with {@code write.policy=merge_by_key} on that key makes them
 * one row when it compacts, as InfluxDB does with a point written twice, while points that differ
 * only by a nanosecond stay apart.
 */
class IngestMergeByKeyIT {
  private static final String TOPIC = HttpIngest.PREFIX + "cpu";
  private static final long BASE_NS = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z

  @TempDir static Path dir;
  private static ConnectCluster cluster;
  private static HttpIngest ingest;

  @BeforeAll
  static void start() throws Exception {
    cluster = ConnectCluster.start("ingest-merge-by-key");
    ingest = new HttpIngest(cluster, Map.of());
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aRetriedRequestBecomesOneRowPerPoint() throws Exception {
    String first = points(0, 200);
    assertThat(ingest.post("/write?precision=ns", first).statusCode()).isEqualTo(204);
    // The retry after a lost answer: the same body again.
    assertThat(ingest.post("/write?precision=ns", first).statusCode()).isEqualTo(204);
    // Half of it a third time, then 100 points of their own, 1 ns apart like the first ones.
    assertThat(ingest.post("/write?precision=ns", points(0, 100)).statusCode()).isEqualTo(204);
    String later = points(200, 300);
    assertThat(ingest.post("/write?precision=ns", later).statusCode()).isEqualTo(204);
    List<HttpIngest.Record> written = ingest.read(TOPIC, 200 + 200 + 100 + 100);
    assertThat(written).hasSize(600);

    Path lake = dir.resolve("lake");
    cluster.connect().configureConnector("lake", sink(lake));
    cluster.awaitRunning("lake", 1, Duration.ofSeconds(60));

    Await.until(
        Duration.ofMinutes(2),
        () ->
            "one row per point; the lake has "
                + rows(lake)
                + " in "
                + ManifestView.fileCount(lake, TOPIC)
                + " file(s)",
        () -> ManifestView.fileCount(lake, TOPIC) == 1 && rows(lake).equals(List.of(300L, 300L)));
    List<Map<String, Object>> byHost =
        ManifestView.query(
            lake, TOPIC, "host, count(*) as n, sum(v) as total", "group by host order by host");
    assertThat(byHost).hasSize(2);
    // Points 0..299, v = i, host h0 for even i and h1 for odd: each once.
    assertThat(((Number) byHost.get(0).get("n")).longValue()).isEqualTo(150);
    assertThat(((Number) byHost.get(0).get("total")).longValue()).isEqualTo(evenSum(300));
    assertThat(((Number) byHost.get(1).get("total")).longValue())
        .isEqualTo(300L * 299 / 2 - evenSum(300));
  }

  /** Line protocol points i in [from, to): two hosts, time BASE_NS + i (1 ns apart). */
  private static String points(int from, int to) {
    StringBuilder body = new StringBuilder();
    for (int i = from; i < to; i++) {
      body.append("cpu,host=h").append(i % 2).append(" v=").append(i).append("i ");
      body.append(BASE_NS + i).append('\n');
    }
    return body.toString();
  }

  private static long evenSum(int n) {
    long sum = 0;
    for (int i = 0; i < n; i += 2) {
      sum += i;
    }
    return sum;
  }

  /** Rows through the log, and distinct (key, time) among them. */
  private static List<Long> rows(Path lake) {
    if (ManifestView.fileCount(lake, TOPIC) == 0) {
      return List.of();
    }
    Map<String, Object> row =
        ManifestView.query(
                lake, TOPIC, "count(*) as n, count(distinct (__key, time_ns)) as points", "")
            .get(0);
    return List.of(((Number) row.get("n")).longValue(), ((Number) row.get("points")).longValue());
  }

  private static Map<String, String> sink(Path lake) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    c.put("tasks.max", "1");
    c.put("topics", TOPIC);
    c.put("topics.dir", lake.toString());
    c.put("store.rocksdb.path", dir.resolve("state").toString());
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "true");
    c.put("consumer.override.isolation.level", "read_committed");
    c.put("write.policy", "merge_by_key");
    c.put("include.key", "true");
    c.put("flush.size", "100");
    c.put("compaction.interval.ms", "1000");
    c.put("compaction.min.files", "2");
    c.put("compaction.grace.ms", "0");
    return c;
  }
}
