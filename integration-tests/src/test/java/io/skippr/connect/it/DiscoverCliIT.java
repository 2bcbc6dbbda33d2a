package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr discover} and {@code skippr schema} as a user runs them: the CLI in its own JVM
 * with only cli/target/lib on its classpath, loading the HTTP ingest source and the namespace
 * router from the built plugin directory.
 */
class DiscoverCliIT {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void theCliClasspathHoldsOurConnectorsForSyncButNoThirdPartyOnes() throws IOException {
    try (Stream<Path> jars = Files.list(ROOT.resolve("cli/target/lib"))) {
      List<String> names = jars.map(p -> p.getFileName().toString()).toList();
      assertThat(names)
          .anyMatch(n -> n.startsWith("connect-runtime-"))
          .as("skippr sync runs our sources and transforms in-process")
          .anyMatch(n -> n.startsWith("skippr-http-ingest-"))
          .anyMatch(n -> n.startsWith("skippr-http-poll-"))
          .anyMatch(n -> n.startsWith("skippr-file-source-"))
          .anyMatch(n -> n.startsWith("skippr-lineprotocol-"))
          .anyMatch(n -> n.startsWith("skippr-source-common-"))
          .anyMatch(n -> n.startsWith("skippr-lake-"))
          .as("the CLI uses the lake library, not the Connect sink adapter")
          .noneMatch(n -> n.startsWith("skippr-sink-connector-"))
          .anyMatch(n -> n.startsWith("skippr-transforms-"))
          .as("other connectors come from --plugin-dir, loaded in isolation")
          .noneMatch(
              n ->
                  n.startsWith("debezium-connector-")
                      && !n.startsWith("debezium-connector-common-"));
    }
  }

  @Test
  void discoversPushedRowsPerNamespaceAndPrintsTheSavedContracts() throws Exception {
    int port = FreePorts.one();
    Path yml = dir.resolve("skippr.yml");
    Files.writeString(
        yml,
        String.join(
            "\n",
            "pipelines:",
            "  events:",
            "    tenant: acme",
            "    source:",
            "      class: io.skippr.connect.source.http.HttpIngestSourceConnector",
            "      config: {server.bind.address: 127.0.0.1, server.port: " + port + ", topic: ev}",
            "    namespace_fields: [kind]",
            ""));
    Cli discover =
        Cli.start(dir, "discover", "--pipeline", "events", "--sample", "3", "--timeout", "60");
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    Await.until(
        Duration.ofSeconds(60),
        () -> "the source to listen on " + port + "; output:\n" + discover.output(),
        () -> {
          assertThat(discover.process.isAlive()).as(discover.output()).isTrue();
          return ping(http, port);
        });
    CompletableFuture<HttpResponse<String>> unanswered =
        http.sendAsync(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ingest/x"))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"kind\":\"click\",\"user\":{\"id\":1},\"at\":\"2024-05-01T12:00:00Z\"}\n"
                            + "{\"kind\":\"click\",\"user\":{\"id\":2,\"name\":\"b\"}}\n"
                            + "{\"kind\":\"view\",\"ms\":12.5}\n"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(discover.awaitExit(Duration.ofSeconds(90))).as(discover.output()).isZero();
    unanswered.cancel(true);
    Path saved = dir.resolve("data/acme/default/events/metadata.json");
    assertThat(discover.stdout())
        .startsWith("pipeline acme/default/events: sampled 3 records in ")
        .contains("saved 2 contracts to " + saved)
        .contains("ev.click  (2 records, sha256:")
        .contains("ev.view  (1 record, sha256:")
        .containsPattern("\n    name +string +nullable\n");

    Cli schema = Cli.start(dir, "schema", "--pipeline", "events", "--output", "json");
    assertThat(schema.awaitExit(Duration.ofSeconds(60))).as(schema.output()).isZero();
    JsonNode printed = JSON.readTree(schema.stdout());
    assertThat(printed).isEqualTo(JSON.readTree(saved.toFile()));
    JsonNode click = printed.get("contracts").get(0);
    assertThat(click.get("namespace").asText()).isEqualTo("ev.click");
    List<String> fields = new ArrayList<>();
    click
        .get("fields")
        .forEach(f -> fields.add(f.get("name").asText() + ":" + f.get("type").asText()));
    assertThat(fields).containsExactly("at:timestamp", "kind:string", "user:struct");

    Cli unknown = Cli.start(dir, "schema", "--pipeline", "evnts");
    assertThat(unknown.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
    assertThat(unknown.stderrLines())
        .containsExactly(
            "skippr schema: unknown pipeline 'evnts' in " + yml + " (it defines: events)");
  }

  private static boolean ping(HttpClient http, int port) {
    try {
      return http.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping")).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 204;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The CLI in its own JVM, launched like the ./skippr script, in a working directory. */
  private static final class Cli {
    final Process process;
    final Path out;
    final Path err;

    private Cli(Process process, Path out, Path err) {
      this.process = process;
      this.out = out;
      this.err = err;
    }

    static Cli start(Path workingDir, String... args) throws IOException {
      Path cliJar;
      try (Stream<Path> jars = Files.list(ROOT.resolve("cli/target"))) {
        cliJar =
            jars.filter(
                    p -> p.getFileName().toString().matches("skippr-cli-[^-]+(-SNAPSHOT)?\\.jar"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("cli jar not built"));
      }
      Path logs = Files.createTempDirectory(workingDir, "cli");
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx512m");
      command.add("-Dskippr.plugin.dir=" + ROOT.resolve("distribution/target/plugin"));
      command.add("-cp");
      command.add(cliJar + ":" + ROOT.resolve("cli/target/lib") + "/*");
      command.add("io.skippr.connect.cli.SkipprCommand");
      command.addAll(List.of(args));
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(workingDir.toFile())
              .redirectOutput(logs.resolve("out").toFile())
              .redirectError(logs.resolve("err").toFile());
      builder.environment().remove("DATA_DIR");
      builder.environment().remove("SKIPPR_CONFIG");
      builder.environment().remove("SKIPPR_S3_BUCKET");
      builder.environment().remove("TRANSFORM_NAMESPACE_FIELDS");
      return new Cli(builder.start(), logs.resolve("out"), logs.resolve("err"));
    }

    int awaitExit(Duration timeout) throws InterruptedException {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError("still running after " + timeout + ":\n" + output());
      }
      return process.exitValue();
    }

    String stdout() {
      return read(out);
    }

    List<String> stderrLines() {
      return read(err).lines().filter(l -> !l.isBlank()).toList();
    }

    String output() {
      return "stdout:\n" + read(out) + "\nstderr:\n" + read(err);
    }

    private static String read(Path file) {
      try {
        return Files.exists(file) ? Files.readString(file) : "";
      } catch (IOException e) {
        return "(unreadable: " + e + ")";
      }
    }
  }
}
