package io.skippr.connect.source.lineprotocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway InfluxDB 1.x server ({@code influxd} from the Debian package {@code influxdb}) on
 * free 127.0.0.1 ports with its data in a temp dir; stopped by its PID.
 */
final class InfluxServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final Path dir;
  private final Process process;
  private final int port;

  private InfluxServer(Path dir, Process process, int port) {
    this.dir = dir;
    this.process = process;
    this.port = port;
  }

  static InfluxServer start() throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("influxd");
    int httpPort = freePort();
    int rpcPort = freePort();
    String config =
        String.join(
            "\n",
            "reporting-enabled = false",
            "bind-address = \"127.0.0.1:" + rpcPort + "\"",
            "[meta]",
            "  dir = \"" + dir.resolve("meta") + "\"",
            "[data]",
            "  dir = \"" + dir.resolve("data") + "\"",
            "  wal-dir = \"" + dir.resolve("wal") + "\"",
            "  query-log-enabled = false",
            "[monitor]",
            "  store-enabled = false",
            "[http]",
            "  bind-address = \"127.0.0.1:" + httpPort + "\"",
            "  log-enabled = false",
            "[continuous_queries]",
            "  enabled = false",
            "");
    Path configFile = dir.resolve("influxdb.conf");
    Files.writeString(configFile, config);
    Process p =
        new ProcessBuilder("influxd", "-config", configFile.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("influxd.log").toFile())
            .start();
    InfluxServer server = new InfluxServer(dir, p, httpPort);
    server.awaitPing();
    return server;
  }

  /** POSTs line protocol to /write; returns the status code and body. */
  HttpResponse<String> write(String db, byte[] body) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(uri("/write?db=" + db + "&precision=ns"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Runs an InfluxQL statement (epoch=ns) and returns the first result. */
  JsonNode query(String db, String q) throws IOException, InterruptedException {
    String form =
        "q=" + URLEncoder.encode(q, StandardCharsets.UTF_8) + (db == null ? "" : "&db=" + db);
    HttpRequest request =
        HttpRequest.newBuilder(uri("/query?epoch=ns"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(q + " -> " + response.statusCode() + " " + response.body());
    }
    return JSON.readTree(response.body()).get("results").get(0);
  }

  private URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }

  private void awaitPing() throws InterruptedException, IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "influxd exited: " + Files.readString(dir.resolve("influxd.log")));
      }
      try {
        HttpRequest ping = HttpRequest.newBuilder(uri("/ping")).build();
        if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 204) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(50);
    }
    close();
    throw new IllegalStateException("influxd did not answer /ping within 30 s");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
