package io.skippr.connect.it;

import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;

/** Runs the HTTP ingest connector in a {@link ConnectCluster} and talks to it like a client. */
final class HttpIngest {

  static final String CONNECTOR = "http-ingest";
  static final String PREFIX = "it.";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  final ConnectCluster cluster;
  final String connector;
  final int port;
  private final JsonConverter values = new JsonConverter();

  HttpIngest(ConnectCluster cluster, Map<String, String> overrides) throws IOException {
    this(cluster, CONNECTOR, overrides);
  }

  /** A connector of the given name (several may run side by side, each on a port of its own). */
  HttpIngest(ConnectCluster cluster, String connector, Map<String, String> overrides)
      throws IOException {
    this.cluster = cluster;
    this.connector = connector;
    this.port = FreePorts.one();
    values.configure(Map.of("schemas.enable", "true"), false);
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", "1");
    config.put("server.port", Integer.toString(port));
    config.put("topic.prefix", PREFIX);
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    // The catalog in a RocksDB of its own, not under the working directory.
    config.put(
        "store.rocksdb.path",
        java.nio.file.Files.createTempDirectory("http-ingest-state").toString());
    config.putAll(overrides);
    cluster.connect().configureConnector(connector, config);
    cluster.awaitRunning(connector, 1, Duration.ofSeconds(60));
    awaitPing();
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  HttpResponse<String> post(String pathAndQuery, String body, String... headers)
      throws IOException, InterruptedException {
    return post(pathAndQuery, body.getBytes(StandardCharsets.UTF_8), headers);
  }

  HttpResponse<String> post(String pathAndQuery, byte[] body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url() + pathAndQuery))
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** GETs a path of the endpoint. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(60)).build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Reads exactly {@code count} records of a topic (fails when fewer arrive in time). */
  List<Record> read(String topic, int count) {
    List<Record> out = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : cluster.kafka().consume(count, 60_000, topic)) {
      String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
      SchemaAndValue v = values.toConnectData(topic, r.value());
      out.add(new Record(key, v.value(), r.timestamp()));
    }
    return out;
  }

  /** A record as read back from Kafka. */
  record Record(String key, Object value, long timestamp) {}

  private void awaitPing() {
    io.skippr.connect.testkit.Await.until(
        Duration.ofSeconds(30),
        "HTTP ingest answers /ping on port " + port,
        () -> {
          try {
            HttpRequest ping = HttpRequest.newBuilder(URI.create(url() + "/ping")).build();
            return HTTP.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 204;
          } catch (IOException e) {
            return false;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          }
        });
  }
}
