package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.ConnectCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a user sees when a connector config is wrong: {@code PUT
 * /connector-plugins/{class}/config/validate} on a real worker puts each error on the key to
 * change, for single keys and for combinations of keys alike.
 */
class ConfigValidationIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String SINK = "io.skippr.connect.sink.LakeSinkConnector";
  private static final String INGEST = "io.skippr.connect.source.http.HttpIngestSourceConnector";
  private static final String FILES = "io.skippr.connect.source.file.FileSourceConnector";
  private static final String POLL = "io.skippr.connect.source.poll.HttpPollSourceConnector";

  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster = ConnectCluster.start("config-validation");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theLakeSinkPutsEachErrorOnItsKey() throws Exception {
    Map<String, String> sound =
        Map.of("name", "lake", "connector.class", SINK, "topics", "t", "topics.dir", "/tmp/lake");
    assertThat(errors(SINK, sound)).isEmpty();
    assertThat(errors(SINK, with(sound, "behavior.on.offset.discontinuity", "skip")))
        .containsOnlyKeys("behavior.on.offset.discontinuity");
    assertThat(errors(SINK, with(with(sound, "flush.bytes", "4096"), "buffer.max.bytes", "2048")))
        .as("a combination: the key to change is flush.bytes")
        .containsOnlyKeys("flush.bytes");
    assertThat(errors(SINK, with(sound, "partitioner.class", "time")))
        .as("the time partitioner needs path.format")
        .containsOnlyKeys("path.format");
    assertThat(errors(SINK, with(sound, "consumer.override.isolation.level", "read_uncommitted")))
        .as("a key Connect defines: reported on it all the same")
        .hasEntrySatisfying(
            "consumer.override.isolation.level",
            messages -> assertThat(messages).anyMatch(m -> m.contains("aborted transactions")));
  }

  @Test
  void theHttpIngestSourcePutsEachErrorOnItsKey() throws Exception {
    Map<String, String> sound =
        Map.of("name", "ingest", "connector.class", INGEST, "server.port", "18086");
    assertThat(errors(INGEST, sound)).isEmpty();
    assertThat(errors(INGEST, with(sound, "server.port", "-1"))).containsOnlyKeys("server.port");
    assertThat(
            errors(
                INGEST,
                with(
                    with(sound, "admission.max.inflight.rows", "10"),
                    "limits.request.max.rows",
                    "11")))
        .as("a combination: the key to change is the admission limit")
        .hasEntrySatisfying(
            "admission.max.inflight.rows",
            messages -> assertThat(messages).anyMatch(m -> m.contains("limits.request.max.rows")))
        .containsOnlyKeys("admission.max.inflight.rows");
    assertThat(
            errors(
                INGEST,
                with(
                    with(sound, "record.encoding", "json"),
                    "value.converter",
                    "org.apache.kafka.connect.json.JsonConverter")))
        .as("json values need the ByteArrayConverter")
        .containsOnlyKeys("record.encoding");
  }

  @Test
  void theFileSourcePutsEachErrorOnItsKey() throws Exception {
    Map<String, String> sound =
        Map.of(
            "name", "files",
            "connector.class", FILES,
            "file.dir", "/tmp/in",
            "file.format", "csv",
            "topic", "rows");
    assertThat(errors(FILES, sound)).isEmpty();
    assertThat(errors(FILES, with(sound, "file.format", "xml"))).containsOnlyKeys("file.format");
    assertThat(errors(FILES, with(sound, "csv.header", "false")))
        .as("a combination: headerless CSV needs its column names")
        .containsOnlyKeys("csv.columns");
  }

  @Test
  void theHttpPollSourcePutsEachErrorOnItsKey() throws Exception {
    Map<String, String> sound =
        Map.of(
            "name", "poll",
            "connector.class", POLL,
            "http.url", "https://api.example.com/v1/orders",
            "topic", "orders",
            "cursor.pointer", "/updated_at");
    assertThat(errors(POLL, sound)).isEmpty();
    assertThat(errors(POLL, with(sound, "pagination.mode", "cursorish")))
        .containsOnlyKeys("pagination.mode");
    assertThat(errors(POLL, with(sound, "pagination.mode", "token")))
        .as("a combination: token pagination needs the token's place in the body")
        .containsOnlyKeys("pagination.next.pointer");
    assertThat(errors(POLL, with(with(sound, "endpoints", "a"), "endpoint.b.topic", "x")))
        .as("an override of an endpoint that is not listed")
        .containsOnlyKeys("endpoints");
  }

  private static Map<String, String> with(Map<String, String> config, String key, String value) {
    Map<String, String> copy = new HashMap<>(config);
    copy.put(key, value);
    return copy;
  }

  /** The error messages of each key that has any, as the REST API reports them. */
  private static Map<String, List<String>> errors(String connectorClass, Map<String, String> config)
      throws Exception {
    URI uri =
        URI.create(
            cluster
                .connect()
                .endpointForResource("connector-plugins/" + connectorClass + "/config/validate"));
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    Map<String, List<String>> errors = new HashMap<>();
    for (JsonNode entry : JSON.readTree(response.body()).get("configs")) {
      JsonNode value = entry.get("value");
      List<String> messages = new ArrayList<>();
      value.get("errors").forEach(m -> messages.add(m.asText()));
      if (!messages.isEmpty()) {
        errors.put(value.get("name").asText(), messages);
      }
    }
    return errors;
  }
}
