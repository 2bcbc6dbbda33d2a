package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog in a real RocksDB state store: field types of measurements and JSON streams, the
 * topic each name owns, limits.topics.max and topic.allow.regex hold across restarts and between
 * two tasks that share the store; type conflicts are rejected per row with the position and reason,
 * in the answer and on the rejection topic.
 */
class HttpIngestCatalogTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path state;

  private Map<String, String> stored(String... more) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "catalog-test");
    props.put("catalog.store", "state");
    props.put("store.rocksdb.path", state.toString());
    for (int i = 0; i < more.length; i += 2) {
      props.put(more[i], more[i + 1]);
    }
    return props;
  }

  @Test
  void jsonFieldTypesAreKeptLikeMeasurementsAndConflictsRejectedPerItem() throws Exception {
    try (TaskHarness h = new TaskHarness(stored())) {
      assertThat(h.post("/ingest/orders", "[{\"id\":1,\"code\":7,\"n\":{\"a\":1}}]").statusCode())
          .isEqualTo(204);
      HttpResponse<String> r =
          h.post(
              "/ingest/orders",
              "[{\"id\":2,\"code\":7.5},{\"id\":3,\"code\":\"x\"},{\"id\":4,\"n\":5},"
                  + "{\"id\":5,\"code\":null,\"extra\":true}]");
      assertThat(r.statusCode()).isEqualTo(400);
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.get("accepted").asInt()).isEqualTo(2);
      JsonNode rejections = body.get("rejections");
      assertThat(rejections).hasSize(2);
      assertThat(rejections.get(0).get("item").asInt()).isEqualTo(1);
      assertThat(rejections.get(0).get("reason").asText())
          .isEqualTo(
              "does not fit JSON stream 'orders': field code: expected double, got string \"x\"");
      assertThat(rejections.get(1).get("item").asInt()).isEqualTo(2);
      assertThat(rejections.get(1).get("reason").asText())
          .startsWith("does not fit JSON stream 'orders': field n:");
      assertThat(h.sentTo("lp.orders")).hasSize(3);
      List<SourceRecord> rejected = h.sentTo("lp._rejections");
      assertThat(rejected).hasSize(2);
      Struct first = (Struct) rejected.get(0).value();
      assertThat(first.get("position_kind")).isEqualTo("item");
      assertThat(first.get("position")).isEqualTo(1L);
      assertThat(first.get("input")).isEqualTo("{\"id\":3,\"code\":\"x\"}");
    }
  }

  @Test
  void typesAndTopicsSurviveARestart() throws Exception {
    Map<String, String> props = stored("limits.topics.max", "2");
    try (TaskHarness h = new TaskHarness(props)) {
      assertThat(h.post("/write", "cpu v=1i 1").statusCode()).isEqualTo(204);
      assertThat(h.post("/ingest/orders", "{\"code\":1}").statusCode()).isEqualTo(204);
    }
    try (TaskHarness h = new TaskHarness(props)) {
      assertThat(reason(h.post("/write", "cpu v=1.5 2")))
          .isEqualTo(
              "'v' is written as a float field but measurement 'cpu' already has it as an integer"
                  + " field");
      assertThat(reason(h.post("/ingest/orders", "{\"code\":\"x\"}")))
          .isEqualTo(
              "does not fit JSON stream 'orders': field code: expected int32, got string \"x\"");
      assertThat(reason(h.post("/write", "mem v=1i 1")))
          .isEqualTo(
              "measurement 'mem' would be topic number 3 of this connector; limits.topics.max is"
                  + " 2");
      assertThat(h.post("/write", "cpu v=2i 2").statusCode()).isEqualTo(204);
    }
  }

  @Test
  void twoTasksSharingTheStoreHoldEveryFieldToOneType() throws Exception {
    try (TaskHarness a = new TaskHarness(stored());
        TaskHarness b = new TaskHarness(stored())) {
      assertThat(a.post("/write", "disk used=1i 1").statusCode()).isEqualTo(204);
      assertThat(reason(b.post("/write", "disk used=\"full\" 2")))
          .isEqualTo(
              "'used' is written as a string field but measurement 'disk' already has it as an"
                  + " integer field");
      assertThat(b.post("/ingest/events", "{\"kind\":\"a\"}").statusCode()).isEqualTo(204);
      assertThat(reason(a.post("/ingest/events", "{\"kind\":{\"nested\":1}}")))
          .startsWith("does not fit JSON stream 'events': field kind:");
      assertThat(a.post("/write", "disk used=2i,free=3i 3").statusCode()).isEqualTo(204);
      Struct row = (Struct) a.sentTo("lp.disk").get(1).value();
      assertThat(row.get("free")).isEqualTo(3L);
    }
  }

  @Test
  void aMeasurementAndAStreamOfOneNameCannotShareATopic() throws Exception {
    try (TaskHarness h = new TaskHarness(stored())) {
      assertThat(h.post("/write", "orders v=1i 1").statusCode()).isEqualTo(204);
      assertThat(reason(h.post("/ingest/orders", "{\"v\":1}")))
          .isEqualTo(
              "JSON stream 'orders' cannot use its topic: measurement 'orders' already writes to"
                  + " 'lp.orders' (Kafka treats '.' and '_' in topic names alike)");
    }
  }

  @Test
  void separatePrefixesCannotCollideInKafka() throws Exception {
    Map<String, String> props =
        stored("topic.prefix", "demo.", "json.topic.prefix", "demo.events.");
    try (TaskHarness h = new TaskHarness(props)) {
      assertThat(h.post("/ingest/orders", "{\"v\":1}").statusCode()).isEqualTo(204);
      assertThat(h.sentTo("demo.events.orders")).hasSize(1);
      assertThat(reason(h.post("/write", "events_orders v=1i 1")))
          .isEqualTo(
              "measurement 'events_orders' cannot use its topic: JSON stream 'orders' already"
                  + " writes to 'demo.events.orders' (Kafka treats '.' and '_' in topic names"
                  + " alike)");
    }
  }

  @Test
  void topicAllowRegexRefusesOtherNames() throws Exception {
    try (TaskHarness h = new TaskHarness(stored("topic.allow.regex", "lp\\.(cpu|mem)"))) {
      assertThat(h.post("/write", "cpu v=1i 1").statusCode()).isEqualTo(204);
      assertThat(reason(h.post("/write", "gpu v=1i 1")))
          .isEqualTo(
              "measurement 'gpu' maps to topic 'lp.gpu', which topic.allow.regex does not allow");
      assertThat(h.sentTo("lp._rejections")).hasSize(1);
    }
  }

  private static String reason(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    return JSON.readTree(response.body()).get("rejections").get(0).get("reason").asText();
  }
}
