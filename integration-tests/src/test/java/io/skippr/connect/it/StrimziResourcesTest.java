package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.strimzi.api.kafka.model.common.template.ContainerEnvVar;
import io.strimzi.api.kafka.model.connect.KafkaConnect;
import io.strimzi.api.kafka.model.connect.build.Artifact;
import io.strimzi.api.kafka.model.connect.build.DownloadableArtifact;
import io.strimzi.api.kafka.model.connect.build.MavenArtifact;
import io.strimzi.api.kafka.model.connect.build.ZipArtifact;
import io.strimzi.api.kafka.model.connector.KafkaConnector;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The Kubernetes resources of {@code deploy/strimzi} read into Strimzi's published API model
 * ({@code io.strimzi:api}) and fabric8's Kubernetes model: a misspelt or misplaced field fails
 * here, not when the operator ignores it. Strimzi's and fabric8's classes keep unknown fields aside
 * instead of failing, so besides Jackson's own check every parsed object must have kept nothing
 * aside.
 */
class StrimziResourcesTest {
  private static final Path DIR = ComposeFiles.ROOT.resolve("deploy/strimzi");
  private static final ObjectMapper YAML =
      YAMLMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
  private static final Map<String, Class<?>> KINDS =
      Map.of(
          "KafkaConnect",
          KafkaConnect.class,
          "KafkaConnector",
          KafkaConnector.class,
          "Service",
          Service.class);

  /** Connect's own connector keys, which no Skippr reference lists. */
  private static final List<String> FRAMEWORK_PREFIXES =
      List.of(
          "key.converter",
          "value.converter",
          "header.converter",
          "consumer.override.",
          "producer.override.",
          "admin.override.",
          "errors.",
          "topic.creation.",
          "transforms",
          "predicates",
          "exactly.once.support",
          "transaction.boundary",
          "topics");

  @Test
  void everyResourceParsesIntoTheApiModelWithNothingUnknown() throws IOException {
    // resources() fails on any field the model does not know
    List<Object> resources = resources();
    assertThat(resources)
        .extracting(r -> r.getClass().getSimpleName())
        .containsExactlyInAnyOrder("KafkaConnect", "KafkaConnector", "KafkaConnector", "Service");
  }

  @Test
  void aMisspeltFieldFails() throws IOException {
    JsonNode connect =
        documents().stream().filter(d -> kind(d).equals("KafkaConnect")).findFirst().orElseThrow();
    ObjectNode typo = connect.deepCopy();
    ((ObjectNode) typo.path("spec").path("template").path("pod")).put("tmpDirSizeLimt", "1Gi");
    assertThatThrownBy(() -> parse(typo)).hasMessageContaining("tmpDirSizeLimt");
    ObjectNode wrongType = connect.deepCopy();
    ((ObjectNode) wrongType.path("spec")).put("replicas", "three");
    assertThatThrownBy(() -> parse(wrongType)).hasMessageContaining("replicas");
  }

  @Test
  void theConnectClusterHasWhatTheConnectorsNeed() throws IOException {
    KafkaConnect connect = only(KafkaConnect.class);
    Map<String, Object> config = connect.getSpec().getConfig();
    assertThat(config)
        .containsEntry("exactly.once.source.support", "enabled")
        .containsEntry("consumer.isolation.level", "read_committed")
        .containsEntry("config.providers", "env,file")
        .containsEntry(
            "config.providers.env.class",
            "org.apache.kafka.common.config.provider.EnvVarConfigProvider")
        .containsEntry(
            "config.providers.file.class",
            "org.apache.kafka.common.config.provider.FileConfigProvider");
    assertThat(connect.getMetadata().getAnnotations())
        .containsEntry("strimzi.io/use-connector-resources", "true");
    assertThat(connect.getSpec().getBuild().getPlugins())
        .flatExtracting(p -> p.getArtifacts())
        .anySatisfy(
            a -> assertThat(((ZipArtifact) a).getUrl()).matches(".*/skippr-connect-[^/]+\\.zip"));
    assertThat(connect.getSpec().getMetricsConfig().getType()).isEqualTo("jmxPrometheusExporter");
    assertThat(connect.getSpec().getTemplate().getServiceAccount().getMetadata().getAnnotations())
        .containsKey("eks.amazonaws.com/role-arn");
  }

  /**
   * {@code build.plugins} adds nothing the plugin archive already ships: a second copy of a jar
   * (AWS STS, say) in the plugin directory is at best dead weight and at worst a second version of
   * the same classes.
   */
  @Test
  void theBuildAddsNoJarTheArchiveShips() throws Exception {
    Set<String> shipped = archiveDependencies();
    assertThat(shipped)
        .as("the archive's dependencies, read from the POMs")
        .contains("software.amazon.awssdk:sts", "software.amazon.awssdk:s3");
    List<Artifact> added =
        only(KafkaConnect.class).getSpec().getBuild().getPlugins().stream()
            .flatMap(p -> p.getArtifacts().stream())
            .toList();
    assertThat(duplicates(added, shipped)).as("artifacts the archive already ships").isEmpty();

    MavenArtifact sts = new MavenArtifact();
    sts.setGroup("software.amazon.awssdk");
    sts.setArtifact("sts");
    sts.setVersion("2.57.8");
    ZipArtifact zip = new ZipArtifact();
    zip.setUrl("https://example.com/other-plugin-1.0.zip");
    assertThat(duplicates(List.of(sts, zip), shipped))
        .containsExactly("software.amazon.awssdk:sts");
  }

  /** The artifacts of {@code added} whose group and artifact id are among {@code shipped}. */
  private static List<String> duplicates(List<Artifact> added, Set<String> shipped) {
    List<String> out = new ArrayList<>();
    for (Artifact artifact : added) {
      if (artifact instanceof MavenArtifact maven) {
        String id = maven.getGroup() + ":" + maven.getArtifact();
        if (shipped.contains(id)) {
          out.add(id);
        }
      } else if (artifact instanceof DownloadableArtifact download && download.getUrl() != null) {
        // a jar by URL: its file name, artifact-version.jar
        String file = download.getUrl().replaceFirst(".*/", "");
        Matcher m = Pattern.compile("(.+?)-\\d[^/]*\\.jar").matcher(file);
        if (m.matches()) {
          shipped.stream().filter(id -> id.endsWith(":" + m.group(1))).forEach(out::add);
        }
      }
    }
    return out;
  }

  /**
   * group:artifact of every dependency the plugin archive ships, as the POMs declare them: the
   * distribution module's project modules and, through their POMs, every dependency they declare
   * outside the test and provided scopes. Transitive dependencies of third-party jars are left out;
   * what a project POM names directly is enough to catch a jar added twice.
   */
  private static Set<String> archiveDependencies() throws Exception {
    Map<String, Path> modules = new HashMap<>();
    try (Stream<Path> poms = Files.walk(ComposeFiles.ROOT, 3)) {
      for (Path pom :
          poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
              .filter(p -> !p.toString().contains("/target/"))
              .toList()) {
        modules.put(text(pom(pom).getDocumentElement(), "artifactId"), pom);
      }
    }
    Set<String> shipped = new TreeSet<>();
    Set<String> seen = new TreeSet<>();
    Deque<Path> todo = new ArrayDeque<>(List.of(ComposeFiles.ROOT.resolve("distribution/pom.xml")));
    while (!todo.isEmpty()) {
      Element project = pom(todo.pop()).getDocumentElement();
      for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (!(n instanceof Element section) || !section.getTagName().equals("dependencies")) {
          continue;
        }
        for (Node d = section.getFirstChild(); d != null; d = d.getNextSibling()) {
          if (!(d instanceof Element dependency)) {
            continue;
          }
          String scope = text(dependency, "scope");
          if (scope.equals("test") || scope.equals("provided")) {
            continue;
          }
          String group = text(dependency, "groupId");
          String artifact = text(dependency, "artifactId");
          if (group.equals("io.skippr.connect") && modules.containsKey(artifact)) {
            if (seen.add(artifact)) {
              todo.push(modules.get(artifact));
            }
          } else {
            shipped.add(group + ":" + artifact);
          }
        }
      }
    }
    return shipped;
  }

  private static Document pom(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
  }

  /** The text of the direct child {@code tag} of {@code element}, or "". */
  private static String text(Element element, String tag) {
    for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element child && child.getTagName().equals(tag)) {
        return child.getTextContent().strip();
      }
    }
    return "";
  }

  @Test
  void connectorsBelongToTheClusterAndTheServiceReachesTheIngestPort() throws IOException {
    KafkaConnect connect = only(KafkaConnect.class);
    String cluster = connect.getMetadata().getName();
    List<KafkaConnector> connectors = all(KafkaConnector.class);
    for (KafkaConnector connector : connectors) {
      assertThat(connector.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", cluster);
    }
    KafkaConnector ingest =
        connectors.stream()
            .filter(c -> c.getSpec().getClassName().endsWith("HttpIngestSourceConnector"))
            .findFirst()
            .orElseThrow();
    Service service = only(Service.class);
    assertThat(service.getSpec().getSelector())
        .containsEntry("strimzi.io/cluster", cluster)
        .containsEntry("strimzi.io/kind", "KafkaConnect");
    assertThat(service.getSpec().getPorts())
        .extracting(ServicePort::getTargetPort)
        .anySatisfy(
            port ->
                assertThat(port.getIntVal())
                    .isEqualTo(Integer.parseInt(config(ingest, "server.port"))));
    assertThat(service.getMetadata().getAnnotations())
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-healthcheck-path", "/health");
  }

  /**
   * Secrets are placeholders of the worker's config providers: the token an environment variable
   * the Connect container sets from a Kubernetes secret, the keystore password a file on a volume
   * mounted from one.
   */
  @Test
  void secretsAreReadThroughConfigProviders() throws IOException {
    KafkaConnect connect = only(KafkaConnect.class);
    KafkaConnector ingest =
        all(KafkaConnector.class).stream()
            .filter(c -> c.getMetadata().getName().equals("http-ingest"))
            .findFirst()
            .orElseThrow();
    Matcher env = Pattern.compile("\\$\\{env:([A-Z_]+)}").matcher(config(ingest, "auth.token"));
    assertThat(env.matches()).as("auth.token through the env provider").isTrue();
    var container = connect.getSpec().getTemplate().getConnectContainer();
    assertThat(container.getEnv())
        .filteredOn(e -> e.getName().equals(env.group(1)))
        .singleElement()
        .extracting(ContainerEnvVar::getValueFrom)
        .satisfies(from -> assertThat(from.getSecretKeyRef()).isNotNull());
    Matcher file =
        Pattern.compile("\\$\\{file:(/[^:]+):[\\w.]+}")
            .matcher(config(ingest, "server.tls.keystore.password"));
    assertThat(file.matches()).as("keystore password through the file provider").isTrue();
    assertThat(container.getVolumeMounts())
        .anySatisfy(m -> assertThat(file.group(1)).startsWith(m.getMountPath() + "/"));
    assertThat(config(ingest, "server.tls.keystore.path"))
        .startsWith(container.getVolumeMounts().get(0).getMountPath() + "/");
  }

  @Test
  void everyConnectorKeyIsDocumentedOrConnects() throws IOException {
    Set<String> documented = documentedKeys();
    for (KafkaConnector connector : all(KafkaConnector.class)) {
      Set<String> unknown = new TreeSet<>();
      for (String key : connector.getSpec().getConfig().keySet()) {
        if (!documented.contains(key) && FRAMEWORK_PREFIXES.stream().noneMatch(key::startsWith)) {
          unknown.add(key);
        }
      }
      assertThat(unknown).as(connector.getMetadata().getName() + ": undocumented keys").isEmpty();
    }
  }

  /** The keys of every configuration reference table of docs/ ({@code | `key` | ...}). */
  private static Set<String> documentedKeys() throws IOException {
    Set<String> keys = new TreeSet<>();
    Pattern row = Pattern.compile("(?m)^\\| `([a-z0-9.]+)` \\|");
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> files = Files.list(ComposeFiles.ROOT.resolve("docs/config"))) {
      files.forEach(pages::add);
    }
    pages.add(ComposeFiles.ROOT.resolve("docs/http-ingest.md"));
    for (Path page : pages) {
      Matcher m = row.matcher(Files.readString(page));
      while (m.find()) {
        keys.add(m.group(1));
      }
    }
    assertThat(keys).contains("topics.dir", "auth.token");
    return keys;
  }

  private static String config(KafkaConnector connector, String key) {
    Object value = connector.getSpec().getConfig().get(key);
    assertThat(value).as(connector.getMetadata().getName() + " " + key).isNotNull();
    return value.toString();
  }

  private static <T> T only(Class<T> type) throws IOException {
    List<T> found = all(type);
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  private static <T> List<T> all(Class<T> type) throws IOException {
    return resources().stream().filter(type::isInstance).map(type::cast).toList();
  }

  private static List<Object> resources() throws IOException {
    List<Object> out = new ArrayList<>();
    for (JsonNode document : documents()) {
      out.add(parse(document));
    }
    return out;
  }

  private static Object parse(JsonNode document) throws IOException {
    Class<?> type = KINDS.get(kind(document));
    assertThat(type).as("a model for kind " + kind(document)).isNotNull();
    Object resource = YAML.treeToValue(document, type);
    List<String> unknown = new ArrayList<>();
    collectUnknown(resource, type.getSimpleName(), unknown, 0);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("fields the model does not know: " + unknown);
    }
    return resource;
  }

  private static String kind(JsonNode document) {
    return document.path("kind").asText();
  }

  /** Every YAML document of every file of deploy/strimzi. */
  private static List<JsonNode> documents() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(DIR)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        try (var parser = YAML.getFactory().createParser(file.toFile())) {
          YAML.readValues(parser, JsonNode.class).forEachRemaining(out::add);
        }
      }
    }
    return out;
  }

  /**
   * Walks the model's getters and collects what any object kept aside as additional properties
   * (fields its class does not have).
   */
  private static void collectUnknown(Object node, String path, List<String> unknown, int depth) {
    if (node == null || depth > 40) {
      return;
    }
    if (node instanceof Collection<?> items) {
      int i = 0;
      for (Object item : items) {
        collectUnknown(item, path + "[" + i++ + "]", unknown, depth + 1);
      }
      return;
    }
    String pkg = node.getClass().getPackageName();
    if (!pkg.startsWith("io.strimzi.api") && !pkg.startsWith("io.fabric8.kubernetes.api")) {
      return;
    }
    for (Method getter : node.getClass().getMethods()) {
      if (!isPropertyGetter(getter)) {
        continue;
      }
      Object value = invoke(getter, node);
      if (getter.getName().equals("getAdditionalProperties")) {
        if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
          unknown.add(path + ": " + extra.keySet());
        }
      } else if (!(value instanceof Map<?, ?>)) {
        collectUnknown(value, path + "." + getter.getName().substring(3), unknown, depth + 1);
      }
    }
  }

  private static boolean isPropertyGetter(Method method) {
    return method.getParameterCount() == 0
        && method.getName().startsWith("get")
        && method.getDeclaringClass() != Object.class
        && !method.getReturnType().isPrimitive();
  }

  private static Object invoke(Method getter, Object target) {
    try {
      return getter.invoke(target);
    } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
      return null;
    }
  }
}
