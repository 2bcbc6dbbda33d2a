package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.DuckDbLake;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline moves from Connect to {@code skippr sync} and back without a duplicate or a gap: the
 * file source runs under Connect (the lake sink landing its topic), is stopped, its offsets (GET
 * /connectors/{name}/offsets) go into {@code skippr state import}; {@code sync --once} lands the
 * next file straight into the same lake; {@code skippr state export} is PATCHed into a new
 * connector, which goes on under Connect with the file after that.
 */
class SyncRoundTripIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path dir;
  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster = ConnectCluster.start("sync-round-trip", 1, Map.of());
    cluster.createTopic("orders", 1);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aPipelineMovesFromConnectToSyncAndBackWithoutADuplicateOrAGap() throws Exception {
    Path inbox = dir.resolve("inbox");
    Path lake = dir.resolve("lake");
    cluster.connect().configureConnector("lake", sink(lake));
    SyncFiles.write(inbox, "a.ndjson", 0, 1_000);
    SyncFiles.write(inbox, "b.ndjson", 1_000, 2_000);
    cluster.connect().configureConnector("files-1", source(inbox));
    awaitRows(lake, 2_000);

    // Connect -> sync: stop the connector, take its offsets into the pipeline's state.
    cluster.connect().stopConnector("files-1");
    Await.until(
        Duration.ofSeconds(60),
        () -> "files-1 stopped: " + cluster.statusOrError("files-1"),
        () -> cluster.statusOrError("files-1").contains("STOPPED"));
    JsonNode fromConnect = JSON.readTree(request("GET", "connectors/files-1/offsets", null));
    assertThat(fromConnect.path("offsets")).hasSize(2);
    SyncCli cli = new SyncCli(dir, Map.of());
    cli.pipeline("orders", SyncFiles.pipeline(inbox, lake.toString(), Map.of()));
    Path offsets = cli.file("connect-offsets.json", fromConnect.toString());
    assertThat(cli.state("import", "orders", offsets.toString())).contains("2 source partition(s)");

    SyncFiles.write(inbox, "c.ndjson", 2_000, 2_700);
    SyncCli.Result sync = cli.once("orders");
    assertThat(sync.exit()).as(sync.output()).isZero();
    assertThat(sync.event("sync_complete").path("records").asLong())
        .as("sync reads only the file Connect never read")
        .isEqualTo(700);
    assertEveryIdOnce(lake, 2_700);

    // sync -> Connect: a new connector, stopped, given the exported offsets, then resumed.
    String exported = cli.state("export", "orders");
    assertThat(JSON.readTree(exported).path("offsets")).hasSize(3);
    ObjectNode create = JSON.createObjectNode();
    create.put("name", "files-2");
    create.set("config", JSON.valueToTree(source(inbox)));
    create.put("initial_state", "STOPPED");
    request("POST", "connectors", create.toString());
    Await.until(
        Duration.ofSeconds(60),
        () -> "files-2 stopped: " + cluster.statusOrError("files-2"),
        () -> cluster.statusOrError("files-2").contains("STOPPED"));
    request("PATCH", "connectors/files-2/offsets", exported);
    SyncFiles.write(inbox, "d.ndjson", 2_700, 3_000);
    request("PUT", "connectors/files-2/resume", null);
    awaitRows(lake, 3_000);
    assertEveryIdOnce(lake, 3_000);
  }

  private static void awaitRows(Path lake, long rows) {
    Await.until(
        Duration.ofMinutes(2),
        () -> rows + " rows in the lake",
        () -> {
          try (DuckDbLake duck = new DuckDbLake(lake)) {
            return duck.hasFiles("orders")
                && duck.count("select count(*) from ${table:orders}") >= rows;
          }
        });
  }

  private static void assertEveryIdOnce(Path lake, long n) {
    SyncFileLakeIT.assertExactlyOnce(lake, n);
  }

  private static String request(String method, String resource, String body) throws Exception {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(cluster.connect().endpointForResource(resource)))
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> response =
        HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode())
        .as("%s %s: %s", method, resource, response.body())
        .isBetween(200, 299);
    return response.body();
  }

  private static Map<String, String> source(Path inbox) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.skippr.connect.source.file.FileSourceConnector");
    config.put("tasks.max", "1");
    config.put("file.dir", inbox.toString());
    config.put("file.pattern", "*.ndjson");
    config.put("file.format", "ndjson");
    config.put("file.min.age.ms", "0");
    config.put("poll.interval.ms", "200");
    config.put("topic", "orders");
    config.put("state.mirror", "off");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    return config;
  }

  private static Map<String, String> sink(Path lake) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.sink.LakeSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", "orders");
    config.put("topics.dir", lake.toString());
    config.put("store.rocksdb.path", dir.resolve("connect-state").toString());
    config.put("flush.size", "500");
    config.put("rotate.schedule.interval.ms", "1000");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("errors.tolerance", "none");
    return config;
  }
}
