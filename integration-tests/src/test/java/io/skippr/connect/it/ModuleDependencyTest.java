package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The modules depend on each other as the README's module map says, read from every module's
 * pom.xml (the reactor's {@code <modules>}, from the root): the lake is a library that knows no
 * connector, and the CLI and the Iceberg registrar are built on the lake, not on the sink
 * connector. A connector module is one that registers a Kafka Connect plugin in {@code
 * META-INF/services}, whatever its name.
 */
class ModuleDependencyTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final String GROUP = "io.skippr.connect";
  private static final String LAKE = "skippr-lake";
  private static final String SINK = "skippr-sink-connector";

  /** Every module by artifactId. */
  private static final Map<String, Module> MODULES = new LinkedHashMap<>();

  /**
   * @param dir the module's directory
   * @param direct its dependencies on modules of this project, every scope
   * @param exported those a module depending on it gets too (every scope but test)
   */
  private record Module(Path dir, Set<String> direct, Set<String> exported) {}

  @BeforeAll
  static void readPoms() throws Exception {
    read(ROOT);
  }

  @Test
  void theCheckSeesTheDependenciesThePomsDeclare() {
    assertThat(MODULES).containsKeys(LAKE, SINK, "skippr-cli", "skippr-iceberg", "skippr-connect");
    assertThat(dependencies(SINK)).contains(LAKE);
    assertThat(dependencies("skippr-connect")).contains(SINK, LAKE);
    assertThat(connectorModules()).contains(SINK).doesNotContain(LAKE);
  }

  @Test
  void theCliAndTheIcebergRegistrarAreBuiltOnTheLakeNotOnTheSinkConnector() {
    for (String module : List.of("skippr-cli", "skippr-iceberg")) {
      assertThat(dependencies(module)).as(module).contains(LAKE).doesNotContain(SINK);
    }
  }

  private static final Set<String> CONVERTER_SERVICES =
      Set.of(
          "org.apache.kafka.connect.storage.Converter",
          "org.apache.kafka.connect.storage.HeaderConverter");

  @Test
  void theLakeDependsOnNoConnectorModule() {
    assertThat(dependencies(LAKE)).doesNotContainAnyElementsOf(connectorModules());
  }

  /**
   * Modules whose main resources register a connector, transform or predicate. A converter module
   * is not one: the lake reads the values a converter produces (the streaming JSON converter's
   * objects are walked by position), and the converter depends on nothing of ours.
   */
  private static Set<String> connectorModules() {
    Set<String> connectors = new TreeSet<>();
    MODULES.forEach(
        (artifact, module) -> {
          Path services = module.dir().resolve("src/main/resources/META-INF/services");
          if (Files.isDirectory(services)) {
            try (Stream<Path> files = Files.list(services)) {
              if (files.anyMatch(
                  f ->
                      f.getFileName().toString().startsWith("org.apache.kafka.connect.")
                          && !CONVERTER_SERVICES.contains(f.getFileName().toString()))) {
                connectors.add(artifact);
              }
            } catch (IOException e) {
              throw new IllegalStateException("cannot list " + services, e);
            }
          }
        });
    return connectors;
  }

  /** The project's modules {@code artifact} depends on, directly or through another. */
  private static Set<String> dependencies(String artifact) {
    Set<String> seen = new LinkedHashSet<>(MODULES.get(artifact).direct());
    Deque<String> todo = new ArrayDeque<>(seen);
    while (!todo.isEmpty()) {
      Module next = MODULES.get(todo.pop());
      if (next != null) {
        next.exported().stream().filter(seen::add).forEach(todo::push);
      }
    }
    return seen;
  }

  private static void read(Path dir) throws Exception {
    Document pom =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(dir.resolve("pom.xml").toFile());
    Element project = pom.getDocumentElement();
    Set<String> direct = new TreeSet<>();
    Set<String> exported = new TreeSet<>();
    Element dependencies = child(project, "dependencies");
    for (Element dependency : children(dependencies, "dependency")) {
      String group = text(dependency, "groupId");
      if (GROUP.equals(group) || "${project.groupId}".equals(group)) {
        String artifact = text(dependency, "artifactId");
        direct.add(artifact);
        if (!"test".equals(text(dependency, "scope"))) {
          exported.add(artifact);
        }
      }
    }
    MODULES.put(text(project, "artifactId"), new Module(dir, direct, exported));
    for (Element module : children(child(project, "modules"), "module")) {
      read(dir.resolve(module.getTextContent().trim()).normalize());
    }
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    if (parent == null) {
      return List.of();
    }
    NodeList nodes = parent.getChildNodes();
    List<Element> found = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node node = nodes.item(i);
      if (node instanceof Element element && element.getTagName().equals(name)) {
        found.add(element);
      }
    }
    return found;
  }

  private static String text(Element parent, String name) {
    Element element = child(parent, name);
    return element == null ? null : element.getTextContent().trim();
  }
}
