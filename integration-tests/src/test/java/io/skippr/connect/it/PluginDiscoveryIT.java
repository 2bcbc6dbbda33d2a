package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.ConnectCluster;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.apache.kafka.connect.connector.Connector;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.HeaderConverter;
import org.apache.kafka.connect.transforms.Transformation;
import org.apache.kafka.connect.transforms.predicates.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The built plugin directory loads in a real worker with {@code plugin.discovery=service_load}, and
 * the worker reports every plugin class our jars contain: a class missing from its {@code
 * META-INF/services} file would be missing from the worker's list.
 */
class PluginDiscoveryIT {
  private static final List<Class<?>> PLUGIN_TYPES =
      List.of(
          Connector.class,
          Transformation.class,
          Converter.class,
          HeaderConverter.class,
          Predicate.class);

  private static ConnectCluster cluster;

  @BeforeAll
  static void start() {
    cluster = ConnectCluster.start("plugin-discovery");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void workerReportsEveryPluginClassInOurJars() throws Exception {
    TreeSet<String> inJars = pluginClassesInJars(ConnectCluster.pluginDir());

    assertThat(inJars)
        .as("plugin classes found by scanning the plugin's jars")
        .contains(
            "io.skippr.connect.sink.LakeSinkConnector",
            "io.skippr.connect.source.http.HttpIngestSourceConnector",
            "io.skippr.connect.source.poll.HttpPollSourceConnector",
            "io.skippr.connect.source.file.FileSourceConnector");
    assertThat(cluster.pluginClasses()).containsAll(inJars);
  }

  @Test
  void pluginLeavesOutWhatTheWorkerShips() throws IOException {
    List<String> jars = new ArrayList<>();
    List<String> inLib = new ArrayList<>();
    try (Stream<Path> files = Files.walk(ConnectCluster.pluginDir())) {
      files
          .filter(p -> p.toString().endsWith(".jar"))
          .forEach(
              p -> {
                jars.add(p.getFileName().toString());
                if (p.getParent().getFileName().toString().equals("lib")) {
                  inLib.add(p.getFileName().toString());
                }
              });
    }
    // Web identity (IRSA) and assume-role need the SDK's STS module in the archive: a worker
    // ships no AWS SDK. The worker of these tests has it on its own classpath, so no test that
    // runs the connector here would notice it missing.
    assertThat(inLib)
        .as("the plugin archive's lib")
        .anyMatch(name -> name.matches("sts-\\d[\\w.-]*\\.jar"))
        .anyMatch(name -> name.matches("s3-\\d[\\w.-]*\\.jar"));
    assertThat(jars)
        .anyMatch(name -> name.startsWith("skippr-sink-connector-"))
        .anyMatch(name -> name.startsWith("skippr-http-ingest-"))
        .anyMatch(name -> name.startsWith("skippr-http-poll-"))
        .anyMatch(name -> name.startsWith("skippr-file-source-"))
        .anyMatch(name -> name.startsWith("skippr-lineprotocol-"))
        .anyMatch(name -> name.startsWith("skippr-source-common-"))
        .anyMatch(name -> name.startsWith("skippr-lake-"));
    assertThat(jars)
        .noneMatch(name -> name.startsWith("kafka-clients-"))
        .noneMatch(name -> name.startsWith("connect-"))
        .noneMatch(name -> name.startsWith("slf4j-"))
        .noneMatch(name -> name.startsWith("hadoop-"));
  }

  /** Concrete public classes in skippr-*.jar implementing a Connect plugin interface. */
  private static TreeSet<String> pluginClassesInJars(Path pluginDir) throws IOException {
    List<Path> jars;
    try (Stream<Path> files = Files.walk(pluginDir)) {
      jars = files.filter(p -> p.toString().endsWith(".jar")).toList();
    }
    URL[] urls = new URL[jars.size()];
    for (int i = 0; i < urls.length; i++) {
      urls[i] = jars.get(i).toUri().toURL();
    }
    TreeSet<String> found = new TreeSet<>();
    try (URLClassLoader loader =
        new URLClassLoader(urls, PluginDiscoveryIT.class.getClassLoader())) {
      for (Path jar : jars) {
        if (jar.getFileName().toString().startsWith("skippr-")) {
          collectPlugins(jar, loader, found);
        }
      }
    }
    return found;
  }

  private static void collectPlugins(Path jar, ClassLoader loader, TreeSet<String> found)
      throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      for (JarEntry entry : file.stream().toList()) {
        String name = entry.getName();
        if (!name.endsWith(".class") || name.contains("$") || name.startsWith("META-INF")) {
          continue;
        }
        String className = name.substring(0, name.length() - 6).replace('/', '.');
        Class<?> type = load(className, loader);
        if (type != null && isPlugin(type)) {
          found.add(className);
        }
      }
    }
  }

  private static Class<?> load(String className, ClassLoader loader) {
    try {
      return Class.forName(className, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  private static boolean isPlugin(Class<?> type) {
    int modifiers = type.getModifiers();
    if (type.isInterface() || Modifier.isAbstract(modifiers) || !Modifier.isPublic(modifiers)) {
      return false;
    }
    return PLUGIN_TYPES.stream().anyMatch(t -> t.isAssignableFrom(type));
  }
}
