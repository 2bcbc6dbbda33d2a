package io.skippr.connect.cli.compact;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;

/**
 * A lake sink connector as Connect's REST API describes it: its configuration, and whether it is
 * stopped, which offline maintenance needs (its tasks would own the partitions otherwise).
 */
record ConnectorSettings(String name, Map<String, String> config) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final String SINK = "io.skippr.connect.sink.LakeSinkConnector";

  /**
   * @throws CompactException when Connect cannot be reached, the connector is unknown, not a lake
   *     sink, or not stopped
   */
  static ConnectorSettings read(String url, String name) throws InterruptedException {
    String base =
        url.replaceAll("/+$", "")
            + "/connectors/"
            + URLEncoder.encode(name, StandardCharsets.UTF_8);
    Map<String, String> config =
        JSON.convertValue(get(base + "/config", name), new TypeReference<Map<String, String>>() {});
    if (!SINK.equals(config.get("connector.class"))) {
      throw new CompactException(
          name + " is not a lake sink connector (" + config.get("connector.class") + ")");
    }
    config.putIfAbsent("name", name);
    String state = get(base + "/status", name).path("connector").path("state").asText();
    if (!"STOPPED".equals(state)) {
      throw new CompactException(
          name
              + " is "
              + state
              + ": its tasks own the lake's partitions; stop it first (curl -X PUT "
              + base
              + "/stop)");
    }
    return new ConnectorSettings(name, config);
  }

  /** The TPs of the connector's topics that have a log in the lake. */
  List<TopicPartition> partitionsIn(LakeStorage storage) throws IOException {
    String topics = config.getOrDefault("topics", "");
    List<String> named =
        Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
    String regex = config.get("topics.regex");
    Pattern pattern = regex == null || regex.isBlank() ? null : Pattern.compile(regex);
    String prefix = LakeLayout.SYSTEM_DIR + "/log/";
    TreeSet<String> seen = new TreeSet<>();
    for (String key : storage.list(prefix)) {
      String rest = key.substring(prefix.length());
      String[] parts = rest.split("/");
      if (parts.length == 3 && parts[1].matches("\\d+") && LakeLayout.seqOf(key) >= 0) {
        boolean ours =
            named.contains(parts[0]) || (pattern != null && pattern.matcher(parts[0]).matches());
        if (ours) {
          seen.add(parts[0] + "/" + parts[1]);
        }
      }
    }
    return seen.stream()
        .map(
            tp ->
                new TopicPartition(
                    tp.substring(0, tp.lastIndexOf('/')),
                    Integer.parseInt(tp.substring(tp.lastIndexOf('/') + 1))))
        .toList();
  }

  private static JsonNode get(String url, String name) throws InterruptedException {
    HttpResponse<String> response;
    try {
      response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new CompactException("cannot reach Connect at " + url + ": " + e.getMessage());
    }
    if (response.statusCode() == 404) {
      throw new CompactException("Connect has no connector " + name);
    }
    if (response.statusCode() != 200) {
      throw new CompactException(
          "GET " + url + " answered " + response.statusCode() + ": " + response.body());
    }
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new CompactException("GET " + url + " answered with no JSON: " + e.getMessage());
    }
  }
}
