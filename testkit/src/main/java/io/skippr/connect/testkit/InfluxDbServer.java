package io.skippr.connect.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A throwaway InfluxDB 1.x server ({@code influxd} from the Debian package {@code influxdb}: {@code
 * apt-get install -y influxdb}) on free 127.0.0.1 ports with its data in a temp directory, started
 * with its own config and stopped by PID. It is the one test server that is not fetched by the
 * build: tests that need it check {@link #installed()} first and are skipped without it.
 */
public final class InfluxDbServer implements AutoCloseable {

  /** Why a test that needs the server is skipped, when {@link #installed()} is false. */
  public static final String NOT_INSTALLED =
      "influxd is not on the PATH (Debian: apt-get install influxdb; .ci/prerequisites installs"
          + " it)";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private final HttpClient http = HttpClient.newHttpClient();
  private final Path dir;
  private final Process process;
  private final int port;
  private final Thread exitHook;

  private InfluxDbServer(Path dir, Process process, int port) {
    this.dir = dir;
    this.process = process;
    this.port = port;
    this.exitHook =
        LocalProcesses.onJvmExit(
            "stop-influxd", () -> LocalProcesses.stop(process.toHandle(), Duration.ofSeconds(5)));
  }

  /** Whether an executable {@code influxd} is on the PATH. */
  public static boolean installed() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "influxd"))) {
        return true;
      }
    }
    return false;
  }

  /** Starts a server; fails with its log when it does not answer /ping in time. */
  public static InfluxDbServer start() throws IOException {
    Path dir = Files.createTempDirectory("influxd");
    int httpPort = LocalProcesses.freePort();
    Path config = dir.resolve("influxdb.conf");
    Files.writeString(config, config(dir, httpPort, LocalProcesses.freePort()));
    Process p =
        new ProcessBuilder(List.of("influxd", "-config", config.toString()))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("influxd.log").toFile())
            .start();
    InfluxDbServer server = new InfluxDbServer(dir, p, httpPort);
    try {
      Await.until(
          START_TIMEOUT,
          () -> "influxd answering /ping on " + httpPort + "; log: " + server.log(),
          server::pings);
    } catch (AssertionError e) {
      server.close();
      throw e;
    }
    return server;
  }

  private static String config(Path dir, int httpPort, int rpcPort) {
    return String.join(
        "\n",
        "reporting-enabled = false",
        "bind-address = \"" + LocalProcesses.LOOPBACK + ":" + rpcPort + "\"",
        "[meta]",
        "  dir = \"" + dir.resolve("meta") + "\"",
        "[data]",
        "  dir = \"" + dir.resolve("data") + "\"",
        "  wal-dir = \"" + dir.resolve("wal") + "\"",
        "  query-log-enabled = false",
        "[monitor]",
        "  store-enabled = false",
        "[http]",
        "  bind-address = \"" + LocalProcesses.LOOPBACK + ":" + httpPort + "\"",
        "  log-enabled = false",
        "[continuous_queries]",
        "  enabled = false",
        "");
  }

  public int port() {
    return port;
  }

  /** POSTs line protocol to {@code /write?db=…&precision=ns}. */
  public HttpResponse<String> write(String db, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(uri("/write?db=" + db + "&precision=ns"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Runs an InfluxQL statement (epoch=ns, db may be null) and returns its first result. */
  public JsonNode query(String db, String q) throws IOException, InterruptedException {
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
    return URI.create("http://" + LocalProcesses.LOOPBACK + ":" + port + pathAndQuery);
  }

  private boolean pings() {
    if (!process.isAlive()) {
      throw new IllegalStateException("influxd exited: " + log());
    }
    try {
      HttpRequest ping = HttpRequest.newBuilder(uri("/ping")).build();
      return http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 204;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private String log() {
    try {
      return Files.readString(dir.resolve("influxd.log"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    LocalProcesses.stop(process.toHandle(), Duration.ofSeconds(10));
    LocalProcesses.cancelOnJvmExit(exitHook);
    LocalProcesses.deleteTree(dir);
  }
}
