package io.skippr.connect.cli.discover;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Loads connector classes from the plugin directory the Connect worker uses, so the CLI's own
 * classpath never carries connector jars (duplicates would break the worker's class isolation in
 * {@code skippr local}). The loader asks the CLI's classloader first, so Connect's API and the
 * schema engine are shared.
 */
public final class PluginJars {
  /** System property naming the plugin directory, as set by the ./skippr launcher. */
  public static final String PLUGIN_DIR_PROPERTY = "skippr.plugin.dir";

  private PluginJars() {}

  /** {@code --plugin-dir}, else {@code -Dskippr.plugin.dir}, else distribution/target/plugin. */
  public static Path resolve(Path option) {
    if (option != null) {
      return option.toAbsolutePath();
    }
    String configured = System.getProperty(PLUGIN_DIR_PROPERTY);
    return Path.of(configured != null ? configured : "distribution/target/plugin").toAbsolutePath();
  }

  /**
   * The jars of a plugin.path entry: {@code {dir}/*}{@code /lib/*.jar} (a directory of plugins),
   * {@code {dir}/lib/*.jar} (one plugin) or {@code {dir}/*.jar}. None when the directory does not
   * exist.
   */
  public static List<Path> jars(Path dir) {
    List<Path> jars = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return jars;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : entries.sorted().toList()) {
        if (entry.toString().endsWith(".jar")) {
          jars.add(entry);
        } else if (Files.isDirectory(entry)) {
          Path lib = entry.getFileName().toString().equals("lib") ? entry : entry.resolve("lib");
          jars.addAll(jarsIn(lib));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    return jars;
  }

  private static List<Path> jarsIn(Path lib) throws IOException {
    if (!Files.isDirectory(lib)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(lib)) {
      return files.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
    }
  }

  /** A loader over the directory's jars whose parent is {@code parent}. */
  public static URLClassLoader open(Path dir, ClassLoader parent) {
    List<URL> urls = new ArrayList<>();
    for (Path jar : jars(dir)) {
      try {
        urls.add(jar.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new IllegalStateException("cannot use " + jar, e);
      }
    }
    return new URLClassLoader("skippr-plugins", urls.toArray(URL[]::new), parent);
  }
}
