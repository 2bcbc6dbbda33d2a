package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.FreePorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code skippr local} as a user runs it: a separate process, stopped with SIGTERM. */
class LocalStackIT {
  private static final Duration READY = Duration.ofMinutes(2);

  @TempDir Path dataDir;

  @Test
  void startsStopsCleanlyAndResumesTheSameCluster() throws Exception {
    int[] ports = FreePorts.take(3);
    String clusterId;
    LocalProcess first = LocalProcess.start(dataDir, ports);
    try {
      first.awaitReady(READY);
      assertThat(get("http://127.0.0.1:" + ports[2] + "/connector-plugins?connectorsOnly=false"))
          .contains("io.skippr.connect.sink.LakeSinkConnector");
      try (Admin admin = admin(ports[0])) {
        admin.createTopics(List.of(new NewTopic("kept-across-restarts", 2, (short) 1))).all().get();
        clusterId = admin.describeCluster().clusterId().get();
      }
    } finally {
      first.stop();
    }
    assertThat(first.exitCode()).as(first.output()).isZero();

    LocalProcess second = LocalProcess.start(dataDir, ports);
    try {
      second.awaitReady(READY);
      try (Admin admin = admin(ports[0])) {
        assertThat(admin.describeCluster().clusterId().get()).isEqualTo(clusterId);
        Set<String> topics = admin.listTopics().names().get();
        assertThat(topics).contains("kept-across-restarts", "skippr-local-configs");
      }
    } finally {
      second.stop();
    }
    assertThat(second.exitCode()).as(second.output()).isZero();
  }

  @Test
  void portInUseIsAOneLineError() throws Exception {
    int[] ports = FreePorts.take(3);
    try (ServerSocket taken = new ServerSocket(ports[2], 1, InetAddress.getLoopbackAddress())) {
      LocalProcess process = LocalProcess.start(dataDir, ports);
      assertThat(process.awaitExit(Duration.ofSeconds(60))).isNotZero();
      assertThat(process.errorLines())
          .containsExactly(
              "skippr local: port "
                  + ports[2]
                  + " on 127.0.0.1 is already in use (choose another"
                  + " with --rest-port)");
    }
  }

  @Test
  void unwritableDataDirIsAOneLineError() throws Exception {
    Path file = Files.writeString(dataDir.resolve("not-a-dir"), "x");
    LocalProcess process = LocalProcess.start(file.resolve("data"), FreePorts.take(3));
    assertThat(process.awaitExit(Duration.ofSeconds(60))).isNotZero();
    assertThat(process.errorLines()).hasSize(1);
    assertThat(process.errorLines().get(0)).contains("is not writable");
  }

  private static Admin admin(int kafkaPort) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort));
  }

  private static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /** The CLI in its own JVM, launched like the ./skippr script does. */
  private static final class LocalProcess {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private LocalProcess(Process process, Path stdout, Path stderr) {
      this.process = process;
      this.stdout = stdout;
      this.stderr = stderr;
    }

    static LocalProcess start(Path dataDir, int[] ports) throws IOException {
      Path root = Path.of("..").toAbsolutePath().normalize();
      Path cliJar;
      try (var jars = Files.list(root.resolve("cli/target"))) {
        cliJar =
            jars.filter(p -> p.getFileName().toString().matches("skippr-cli-.*\\.jar"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("cli jar not built"));
      }
      Path logs = Files.createTempDirectory("skippr-local-it");
      Path out = logs.resolve("stdout.txt");
      Path err = logs.resolve("stderr.txt");
      ProcessBuilder builder =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx1g",
                  "-cp",
                  cliJar + ":" + root.resolve("cli/target/lib") + "/*",
                  "io.skippr.connect.cli.SkipprCommand",
                  "local",
                  "--data-dir=" + dataDir,
                  "--kafka-port=" + ports[0],
                  "--controller-port=" + ports[1],
                  "--rest-port=" + ports[2],
                  "--plugin-dir=" + root.resolve("distribution/target/plugin"))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      return new LocalProcess(builder.start(), out, err);
    }

    void awaitReady(Duration timeout) {
      Await.until(
          timeout,
          () -> "ready line; output so far:\n" + output(),
          () -> {
            if (!process.isAlive()) {
              throw new AssertionError("exited with " + process.exitValue() + ":\n" + output());
            }
            return read(stdout).contains("skippr local: ready:");
          });
    }

    /** SIGTERM, then waits up to 30 s for a clean exit. */
    void stop() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError("did not stop within 30 s of SIGTERM:\n" + output());
      }
    }

    int exitCode() {
      return process.exitValue();
    }

    int awaitExit(Duration timeout) throws InterruptedException {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError("still running after " + timeout + ":\n" + output());
      }
      return process.exitValue();
    }

    List<String> errorLines() {
      return read(stderr).lines().filter(line -> !line.isBlank()).toList();
    }

    String output() {
      return read(stdout) + "\n--- stderr ---\n" + read(stderr);
    }

    private static String read(Path file) {
      try {
        return Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "(unreadable: " + e + ")";
      }
    }
  }
}
