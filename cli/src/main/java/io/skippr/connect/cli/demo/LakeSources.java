package io.skippr.connect.cli.demo;

import io.skippr.connect.cli.discover.PluginJars;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What DuckDB should read for a lake table. The lake's TP logs are the authority on which files are
 * live; a crash can leave orphans on disk until the sink next opens the partition. When the files
 * on disk are exactly the live ones, the plain glob reads the same rows (and is what a user would
 * type); otherwise the live files are listed one by one.
 *
 * <p>The log is read by the sink's own {@code LakeManifest}, loaded from the plugin directory (the
 * CLI's classpath never carries connector jars).
 */
final class LakeSources implements AutoCloseable {
  static final String MANIFEST_CLASS = "io.skippr.connect.sink.log.LakeManifest";

  /**
   * A table's {@code read_parquet} expression.
   *
   * @param liveFiles files the log lists
   * @param unlisted files on disk the log does not list (read around)
   */
  record Source(String table, String expression, int liveFiles, int unlisted) {}

  private final Path lake;
  private final URLClassLoader loader;
  private final Function<Path, Map<String, Map<Path, Long>>> manifest;

  LakeSources(Path lake, Path pluginDir) {
    this.lake = lake;
    this.loader = PluginJars.open(pluginDir, LakeSources.class.getClassLoader());
    this.manifest = loadManifest(loader, pluginDir);
  }

  @SuppressWarnings("unchecked")
  private static Function<Path, Map<String, Map<Path, Long>>> loadManifest(
      ClassLoader loader, Path pluginDir) {
    try {
      return (Function<Path, Map<String, Map<Path, Long>>>)
          Class.forName(MANIFEST_CLASS, true, loader).getConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new DemoException(
          "the plugin in " + pluginDir + " has no lake reader (" + MANIFEST_CLASS + "): " + e, e);
    }
  }

  /** The sources of the tables the log lists files of, among {@code tables}. */
  Map<String, Source> sources(List<String> tables) {
    Map<String, Map<Path, Long>> live = manifest.apply(lake);
    Map<String, Source> sources = new LinkedHashMap<>();
    for (String table : tables) {
      Map<Path, Long> files = live.getOrDefault(table, Map.of());
      if (!files.isEmpty()) {
        sources.put(table, source(table, files));
      }
    }
    return sources;
  }

  private Source source(String table, Map<Path, Long> live) {
    Set<Path> onDisk = parquetFiles(lake.resolve(table));
    Set<Path> unlisted = new TreeSet<>(onDisk);
    unlisted.removeAll(live.keySet());
    String expression;
    if (onDisk.equals(live.keySet())) {
      expression = readParquet(quote(lake.resolve(table) + "/**/*.parquet"));
    } else {
      expression =
          readParquet(
              live.keySet().stream()
                  .map(p -> quote(p.toString()))
                  .collect(Collectors.joining(", ", "[", "]")));
    }
    return new Source(table, expression, live.size(), unlisted.size());
  }

  private static String readParquet(String files) {
    return "read_parquet(" + files + ", hive_partitioning=true, union_by_name=true)";
  }

  private static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  private static Set<Path> parquetFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".parquet"))
          .filter(Files::isRegularFile)
          .map(Path::toAbsolutePath)
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  @Override
  public void close() {
    try {
      loader.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
