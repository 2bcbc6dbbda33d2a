package io.skippr.connect.it.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the sink module's bench stages ({@code io.skippr.connect.sink.bench.SinkStagesBench}) in a
 * fresh JVM: this JVM's class path plus the test classes of the sink and lake modules. Echoes the
 * output and collects its {@code RESULT key=value ...} lines.
 */
final class BenchJvm {
  /** System property naming the sink module's test classes directory. */
  static final String SINK_TEST_CLASSES = "bench.sink.test.classes";

  private static final String MAIN = "io.skippr.connect.sink.bench.SinkStagesBench";

  private final Path jfrDir;

  /**
   * @param jfrDir where each fork writes a flight recording, or null for none
   */
  BenchJvm(Path jfrDir) {
    this.jfrDir = jfrDir;
  }

  /** Runs the stages with {@code args} in a JVM of {@code heap} (e.g. "2g"). */
  List<Map<String, String>> run(String name, String heap, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xms" + heap);
    command.add("-Xmx" + heap);
    if (jfrDir != null) {
      command.add(
          "-XX:StartFlightRecording=settings=profile,filename="
              + jfrDir.resolve(name + ".jfr").toAbsolutePath());
    }
    command.add("-cp");
    command.add(sinkTestClasses() + File.pathSeparator + System.getProperty("java.class.path"));
    command.add(MAIN);
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<Map<String, String>> results = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith("RESULT ")) {
          results.add(parse(line));
        } else if (!line.contains(" DEBUG ") && !line.contains(" INFO ")) {
          System.out.println("  [" + name + "] " + line);
        }
      }
    } finally {
      process.destroy();
    }
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IllegalStateException(name + " failed with exit code " + exit);
    }
    return results;
  }

  /** The figures of the single result of a stage. */
  static Map<String, String> only(List<Map<String, String>> results, String stage) {
    return results.stream()
        .filter(r -> stage.equals(r.get("stage")))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no result for stage " + stage));
  }

  private static Map<String, String> parse(String line) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String pair : line.substring("RESULT ".length()).trim().split(" ")) {
      int eq = pair.indexOf('=');
      values.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    return values;
  }

  private static String sinkTestClasses() {
    String configured = System.getProperty(SINK_TEST_CLASSES);
    Path dir =
        configured != null
            ? Paths.get(configured)
            : Paths.get("").toAbsolutePath().resolveSibling("sink-connector/target/test-classes");
    if (!Files.isDirectory(dir.resolve("io/skippr/connect/sink/bench"))) {
      throw new IllegalStateException(
          "sink bench classes not found under " + dir + ": build with test-compile first");
    }
    // The rows the stages write (BenchRows) are the lake module's, a sibling of the sink module.
    Path lake =
        dir.toAbsolutePath().getParent().getParent().resolveSibling("lake/target/test-classes");
    return dir + File.pathSeparator + lake;
  }
}
