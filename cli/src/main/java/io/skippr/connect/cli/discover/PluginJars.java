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
 * Loads connector classes from the plugin directory the Connect worker uses. Our own connectors and
 * transforms are on the CLI's classpath too (skippr sync runs them in-process, sharing one state
 * store handle); the worker of {@code skippr local} still loads the plugin's copies in isolation,
 * as Connect prefers an isolated plugin over a classpath one of the same version.
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

  /** A loader over the directory's jars that asks {@code parent} first (discovery's). */
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

  /**
   * A loader over the directory's jars that looks in them first, as Connect's plugin isolation
   * does, so a plugin that loads its own classes by name (Debezium's connectors do) finds them.
   * Only what the run and its plugins must share comes from {@code parent} first: the JDK, Kafka's
   * and Connect's API, logging, Debezium's engine API and our own classes (whose state store handle
   * a run shares with its sources).
   */
  public static URLClassLoader isolated(Path dir, ClassLoader parent) {
    List<URL> urls = new ArrayList<>();
    for (Path jar : jars(dir)) {
      try {
        urls.add(jar.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new IllegalStateException("cannot use " + jar, e);
      }
    }
    return new ChildFirst(urls.toArray(URL[]::new), parent);
  }

  /** Plugin jars first, except for the shared packages. */
  private static final class ChildFirst extends URLClassLoader {
    private static final List<String> SHARED =
        List.of(
            "java.",
            "javax.",
            "jdk.",
            "sun.",
            "org.apache.kafka.",
            "org.slf4j.",
            "org.apache.logging.log4j.",
            "io.debezium.engine.",
            "io.debezium.embedded.",
            "io.skippr.connect.");

    static {
      ClassLoader.registerAsParallelCapable();
    }

    ChildFirst(URL[] urls, ClassLoader parent) {
      super("skippr-plugins-isolated", urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (shared(name)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded == null) {
          try {
            loaded = findClass(name);
          } catch (ClassNotFoundException notInPlugins) {
            loaded = getParent().loadClass(name);
          }
        }
        if (resolve) {
          resolveClass(loaded);
        }
        return loaded;
      }
    }

    @Override
    public URL getResource(String name) {
      URL own = findResource(name);
      return own != null ? own : super.getResource(name);
    }

    @Override
    public java.util.Enumeration<URL> getResources(String name) throws java.io.IOException {
      List<URL> all = new ArrayList<>(java.util.Collections.list(findResources(name)));
      for (URL url : java.util.Collections.list(getParent().getResources(name))) {
        if (!all.contains(url)) {
          all.add(url);
        }
      }
      return java.util.Collections.enumeration(all);
    }

    private static boolean shared(String name) {
      for (String prefix : SHARED) {
        if (name.startsWith(prefix)) {
          return true;
        }
      }
      return false;
    }
  }
}
