package io.skippr.connect.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The official InfluxDB v2 JavaScript client ({@code clients/influx/write.mjs}), run with node.
 * Installs it with {@code npm ci} (from the committed lockfile) when node_modules is missing.
 */
final class InfluxJsClient {

  private static final Path DIR = locate();

  private InfluxJsClient() {}

  /** Writes the points (JSON, see write.mjs) and returns the client's exit code and output. */
  static Result write(String url, String token, String org, String bucket, String pointsJson)
      throws IOException, InterruptedException {
    installOnce();
    Path input = Files.createTempFile("influx-points", ".json");
    Path output = Files.createTempFile("influx-out", ".txt");
    try {
      Files.writeString(input, pointsJson, StandardCharsets.UTF_8);
      Process p =
          new ProcessBuilder("node", "write.mjs", url, token, org, bucket)
              .directory(DIR.toFile())
              .redirectInput(input.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("node client did not finish in 120 s");
      }
      return new Result(p.exitValue(), Files.readString(output));
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }

  /** Exit code and combined output of one client run. */
  record Result(int exitCode, String output) {}

  private static synchronized void installOnce() throws IOException, InterruptedException {
    if (Files.isDirectory(DIR.resolve("node_modules/@influxdata/influxdb-client"))) {
      return;
    }
    Process npm =
        new ProcessBuilder(List.of("npm", "ci", "--no-audit", "--no-fund"))
            .directory(DIR.toFile())
            .inheritIO()
            .start();
    if (!npm.waitFor(300, TimeUnit.SECONDS) || npm.exitValue() != 0) {
      npm.destroyForcibly();
      throw new IllegalStateException("npm ci failed in " + DIR);
    }
  }

  private static Path locate() {
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("integration-tests/clients/influx");
      if (Files.isRegularFile(candidate.resolve("write.mjs"))) {
        return candidate;
      }
      if (Files.isRegularFile(p.resolve("clients/influx/write.mjs"))) {
        return p.resolve("clients/influx");
      }
    }
    throw new IllegalStateException("clients/influx/write.mjs not found from the working dir");
  }
}
