package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The docker-compose stack as committed: {@code docker/docker-compose.yml}, the worker's {@code
 * docker/worker.properties} and the connectors of {@code config/docker/*.json}, with the addresses
 * and paths of the containers replaced by those of local processes, and nothing else changed.
 */
final class ComposeFiles {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final Path DOCKER = ROOT.resolve("docker");
  private static final Path CONNECTORS = ROOT.resolve("config/docker");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final JsonNode compose;
  private final Map<String, String> hostPorts = new LinkedHashMap<>();
  private final Map<String, String> paths = new LinkedHashMap<>();

  private ComposeFiles(JsonNode compose) {
    this.compose = compose;
  }

  static ComposeFiles read() throws IOException {
    return new ComposeFiles(
        new YAMLMapper().readTree(DOCKER.resolve("docker-compose.yml").toFile()));
  }

  /** The compose file's names of its services. */
  List<String> services() {
    List<String> names = new ArrayList<>();
    compose.path("services").fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** A service's {@code command} (the list form, as the stack writes it). */
  List<String> command(String service) {
    JsonNode command = compose.path("services").path(service).path("command");
    assertThat(command.isArray()).as(service + " command as a list").isTrue();
    List<String> out = new ArrayList<>();
    command.forEach(c -> out.add(c.asText()));
    return out;
  }

  /** A service's {@code environment} (the map form, as the stack writes it). */
  Map<String, String> environment(String service) {
    JsonNode env = compose.path("services").path(service).path("environment");
    assertThat(env.isObject()).as(service + " environment as a map").isTrue();
    Map<String, String> out = new LinkedHashMap<>();
    env.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  /**
   * Maps the container paths of a service's volumes to local paths: named volumes to {@code
   * standIns}' folders, bind mounts to the file or folder they mount (relative to {@code docker/})
   * unless {@code standIns} names a stand-in for their source too.
   */
  ComposeFiles mountsOf(String service, Map<String, Path> standIns) {
    for (JsonNode volume : compose.path("services").path(service).path("volumes")) {
      String[] parts = volume.asText().split(":");
      String source = parts[0];
      Path local =
          standIns.containsKey(source) || !(source.startsWith(".") || source.startsWith("/"))
              ? standIns.get(source)
              : DOCKER.resolve(source).normalize();
      assertThat(local).as("a local stand-in for volume " + source).isNotNull();
      paths.put(parts[1], local.toString());
    }
    return this;
  }

  /** Replaces the compose address {@code host:port} (e.g. {@code s3:9090}) with a local one. */
  ComposeFiles address(String composeHostPort, String localHostPort) {
    hostPorts.put(composeHostPort, localHostPort);
    return this;
  }

  /** {@code docker/worker.properties} as committed. */
  static Properties workerProperties() throws IOException {
    Properties props = new Properties();
    try (Reader in = Files.newBufferedReader(DOCKER.resolve("worker.properties"))) {
      props.load(in);
    }
    return props;
  }

  /** Every connector of {@code config/docker}, by name (the file name, as register.sh uses). */
  static Map<String, Map<String, String>> connectors() throws IOException {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(CONNECTORS)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        String name = file.getFileName().toString().replaceFirst("\\.json$", "");
        out.put(name, JSON.readValue(file.toFile(), new TypeReference<Map<String, String>>() {}));
      }
    }
    return out;
  }

  /**
   * A value with its addresses and paths made local: mapped {@code host:port}s, the container paths
   * of mounted volumes and the paths under them (also inside lists such as plugin.path and options
   * such as {@code -javaagent:PATH=PORT:PATH}), and the wildcard bind address {@code 0.0.0.0},
   * which becomes {@code 127.0.0.1}.
   */
  String localize(String value) {
    String out = value;
    for (Map.Entry<String, String> e : hostPorts.entrySet()) {
      out =
          out.replaceAll(
              "(?<![\\w.-])" + Pattern.quote(e.getKey()) + "(?!\\d)",
              Matcher.quoteReplacement(e.getValue()));
    }
    return localizePaths(out).replace("0.0.0.0", "127.0.0.1");
  }

  /** One pass over the value, longest container path first, so no local path is mapped again. */
  private String localizePaths(String value) {
    if (paths.isEmpty()) {
      return value;
    }
    List<String> containerPaths = new ArrayList<>(paths.keySet());
    containerPaths.sort((a, b) -> b.length() - a.length());
    Pattern mounted =
        Pattern.compile(
            "(?<![\\w./-])("
                + String.join("|", containerPaths.stream().map(Pattern::quote).toList())
                + ")(?=$|[/:,=\\s])");
    Matcher m = mounted.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(paths.get(m.group(1))));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The properties with {@link #localize} applied to every value. */
  Properties localize(Properties props) {
    Properties out = new Properties();
    props.stringPropertyNames().forEach(k -> out.setProperty(k, localize(props.getProperty(k))));
    return out;
  }

  /** The config with {@link #localize} applied to every value. */
  Map<String, String> localize(Map<String, String> config) {
    Map<String, String> out = new LinkedHashMap<>();
    config.forEach((k, v) -> out.put(k, localize(v)));
    return out;
  }

  /**
   * The compose {@code host:port} addresses still in {@code values}: those of services that have no
   * local stand-in.
   */
  List<String> composeAddressesIn(Iterable<String> values) {
    Pattern address = Pattern.compile("(?<![\\w.-])(" + String.join("|", services()) + "):\\d+");
    List<String> found = new ArrayList<>();
    for (String value : values) {
      Matcher m = address.matcher(value);
      while (m.find()) {
        found.add(m.group());
      }
    }
    return found;
  }
}
