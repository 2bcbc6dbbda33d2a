package io.skippr.connect.cli;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path of the local stack's Connect worker: this process's class path without the
 * project's own jars and Debezium's. The CLI carries them for the commands that run connectors
 * in-process ({@code sync}, {@code compact}); a worker that saw them would load those copies
 * instead of the plugins in {@code --plugin-dir}, and the stack would not run what users deploy.
 * Logging is shared with the CLI, so the worker logs through the CLI's configuration.
 */
final class WorkerClassLoader extends URLClassLoader {
  private static final List<String> SHARED =
      List.of("org.slf4j.", "org.apache.logging.log4j.", "org.apache.log4j.");

  private final ClassLoader cli;

  private WorkerClassLoader(URL[] urls, ClassLoader cli) {
    super("skippr-local-worker", urls, ClassLoader.getPlatformClassLoader());
    this.cli = cli;
  }

  /** A loader over {@code java.class.path} minus the project's jars and class directories. */
  static WorkerClassLoader create() {
    List<URL> urls = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.isBlank() || ours(Path.of(entry))) {
        continue;
      }
      try {
        urls.add(Path.of(entry).toUri().toURL());
      } catch (MalformedURLException e) {
        throw new IllegalStateException("class path entry " + entry + ": " + e.getMessage(), e);
      }
    }
    return new WorkerClassLoader(
        urls.toArray(URL[]::new), WorkerClassLoader.class.getClassLoader());
  }

  /**
   * The project's jars ({@code skippr-*.jar}), Debezium's (the embedded engine of {@code sync})
   * and, run from a build tree, the project's class directories.
   */
  static boolean ours(Path entry) {
    String name = entry.getFileName() == null ? "" : entry.getFileName().toString();
    if ((name.startsWith("skippr-") || name.startsWith("debezium-")) && name.endsWith(".jar")) {
      return true;
    }
    Path parent = entry.getParent();
    return name.equals("classes")
        && parent != null
        && parent.getFileName() != null
        && parent.getFileName().toString().equals("target");
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    for (String prefix : SHARED) {
      if (name.startsWith(prefix)) {
        return cli.loadClass(name);
      }
    }
    return super.loadClass(name, resolve);
  }
}
