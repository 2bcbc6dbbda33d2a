package io.skippr.connect.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The official InfluxDB v2 JavaScript client ({@code @influxdata/influxdb-client}), driven by
 * {@code integration-tests/clients/influx/write.mjs} under node. Installs it with {@code npm ci}
 * from the committed lockfile when node_modules is missing.
 */
public final class InfluxJsClient {

  /** System property overriding where {@code integration-tests/clients/influx} is. */
  public static final String DIR_PROPERTY = "skippr.influx.client.dir";

  private InfluxJsClient() {}

  /**
   * Writes the points (a JSON array, see write.mjs) with precision ns and returns the client's
   * output; fails with it when the client exits non-zero (the server refused a batch).
   */
  public static String write(String url, String token, String org, String bucket, String points)
      throws IOException {
    Path home = LocalProcesses.repositoryFolder("integration-tests/clients/influx", DIR_PROPERTY);
    install(home);
    Path input = Files.createTempFile("influx-points", ".json");
    try {
      Files.writeString(input, points, StandardCharsets.UTF_8);
      return LocalProcesses.run(
          List.of(
              "sh",
              "-c",
              "exec node write.mjs \"$0\" \"$1\" \"$2\" \"$3\" < \"$4\"",
              url,
              token,
              org,
              bucket,
              input.toString()),
          home,
          Duration.ofSeconds(120));
    } finally {
      Files.deleteIfExists(input);
    }
  }

  private static synchronized void install(Path home) {
    if (!Files.isDirectory(home.resolve("node_modules/@influxdata/influxdb-client"))) {
      LocalProcesses.run(
          List.of("npm", "ci", "--no-audit", "--no-fund"), home, Duration.ofMinutes(5));
    }
  }
}
