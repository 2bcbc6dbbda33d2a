package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code skippr sync} and {@code skippr state} as a user runs them: a skippr.yml in a working
 * directory, each command a JVM of its own (so a test can SIGKILL it), JSON events on stdout.
 */
final class SyncCli {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final Path dir;
  private final Map<String, String> env;
  private final List<Path> extraClasspath;
  private final ObjectNode pipelines = JSON.createObjectNode();
  private int started;

  /** A run of {@code sync}: its exit code, JSON events and all it printed. */
  record Result(int exit, List<JsonNode> events, String output) {
    /** The one event of this name. */
    JsonNode event(String name) {
      List<JsonNode> found =
          events.stream().filter(e -> name.equals(e.path("event").asText())).toList();
      assertThat(found).as("%s events in:\n%s", name, output).hasSize(1);
      return found.get(0);
    }

    long count(String name) {
      return events.stream().filter(e -> name.equals(e.path("event").asText())).count();
    }
  }

  /**
   * @param dir the working directory: skippr.yml, the data directory ({@code data/}) and logs
   * @param env extra environment variables of every command (AWS credentials, say)
   */
  SyncCli(Path dir, Map<String, String> env) {
    this(dir, env, List.of());
  }

  /**
   * As {@link #SyncCli(Path, Map)}, with jars after the CLI's own on every command's class path.
   */
  SyncCli(Path dir, Map<String, String> env, List<Path> extraClasspath) {
    this.dir = dir;
    this.env = env;
    this.extraClasspath = extraClasspath;
  }

  Path dataDir() {
    return dir.resolve("data");
  }

  /** Adds or replaces a pipeline of skippr.yml: {@code source}, {@code lake}, {@code sync}... */
  void pipeline(String name, Map<String, Object> pipeline) {
    pipelines.set(name, JSON.valueToTree(pipeline));
    ObjectNode file = JSON.createObjectNode();
    file.set("pipelines", pipelines);
    try {
      YAML.writeValue(dir.resolve("skippr.yml").toFile(), file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts {@code skippr sync --pipeline NAME --output json <more>} in its own JVM. */
  CliProcess startSync(String pipeline, String... more) throws IOException {
    List<String> args =
        new ArrayList<>(List.of("sync", "--pipeline", pipeline, "--output", "json"));
    args.addAll(common());
    args.addAll(List.of(more));
    return CliProcess.start(
        "sync-" + (++started), dir.resolve("logs"), args, dir, env, extraClasspath);
  }

  /** Runs {@code sync --once} to its end. */
  Result once(String pipeline, String... more) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("--once"));
    args.addAll(List.of(more));
    CliProcess process = startSync(pipeline, args.toArray(String[]::new));
    int exit = process.awaitExit(Duration.ofMinutes(4));
    return result(process, exit);
  }

  /** What a sync process printed, read as events. */
  static Result result(CliProcess process, int exit) {
    List<JsonNode> events = new ArrayList<>();
    for (String line : process.stdout().lines().toList()) {
      if (line.startsWith("{")) {
        try {
          events.add(JSON.readTree(line));
        } catch (IOException e) {
          throw new AssertionError("not a JSON event: " + line, e);
        }
      }
    }
    return new Result(exit, events, process.output());
  }

  /** Runs {@code skippr state <subcommand> --pipeline NAME <more>}; fails unless it exits 0. */
  String state(String subcommand, String pipeline, String... more)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("state", subcommand, "--pipeline", pipeline));
    args.addAll(common());
    args.addAll(List.of(more));
    CliProcess process =
        CliProcess.start(
            "state-" + (++started), dir.resolve("logs"), args, dir, env, extraClasspath);
    int exit = process.awaitExit(Duration.ofMinutes(2));
    assertThat(exit).as("skippr state %s:\n%s", subcommand, process.output()).isZero();
    return process.stdout();
  }

  /** Writes {@code text} to a file of the working directory and returns its path. */
  Path file(String name, String text) {
    try {
      return Files.writeString(dir.resolve(name), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<String> common() {
    return List.of(
        "--config", dir.resolve("skippr.yml").toString(), "--data-dir", dataDir().toString());
  }
}
