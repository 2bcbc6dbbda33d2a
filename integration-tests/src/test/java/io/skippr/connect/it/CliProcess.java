package io.skippr.connect.it;

import io.skippr.connect.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code skippr} command ({@code local}, {@code sync}, ...) in its own JVM, as ./skippr runs it.
 */
final class CliProcess {
  private final String name;
  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private CliProcess(String name, Process process, Path stdout, Path stderr) {
    this.name = name;
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /**
   * A KRaft broker of its own ({@code skippr local --no-worker}) with its data and logs under
   * {@code dir}, on 127.0.0.1:{@code kafkaPort}, ready when this returns.
   */
  static CliProcess startBroker(Path dir, int kafkaPort, int controllerPort, Duration timeout)
      throws IOException {
    CliProcess broker =
        startLocal(
            "broker",
            dir.resolve("logs"),
            List.of(
                "--no-worker",
                "--data-dir=" + dir.resolve("broker"),
                "--kafka-port=" + kafkaPort,
                "--controller-port=" + controllerPort));
    broker.awaitReady(timeout);
    return broker;
  }

  /** Starts {@code skippr local <args>}, its output in {@code logs/<name>.out|err}. */
  static CliProcess startLocal(String name, Path logs, List<String> args) throws IOException {
    return startLocal(name, logs, args, Path.of("").toAbsolutePath());
  }

  /** As {@link #startLocal(String, Path, List)}, in the working directory {@code workingDir}. */
  static CliProcess startLocal(String name, Path logs, List<String> args, Path workingDir)
      throws IOException {
    return startLocal(name, logs, args, workingDir, Map.of());
  }

  /** Like {@link #startLocal(String, Path, List)}, with extra environment variables. */
  static CliProcess startLocal(String name, Path logs, List<String> args, Map<String, String> env)
      throws IOException {
    return startLocal(name, logs, args, Path.of("").toAbsolutePath(), env);
  }

  /**
   * As {@link #startLocal(String, Path, List, Path)}, with {@code env} added to its environment.
   */
  static CliProcess startLocal(
      String name, Path logs, List<String> args, Path workingDir, Map<String, String> env)
      throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    return startLocal(
        name, logs, args, workingDir, env, root.resolve("distribution/target/plugin"), List.of());
  }

  /**
   * As {@link #startLocal(String, Path, List, Path, Map)}, loading the plugins of {@code
   * pluginDir}, with {@code extraClasspath} on the worker's class path (a JDBC driver, as users add
   * one to the worker).
   */
  static CliProcess startLocal(
      String name,
      Path logs,
      List<String> args,
      Path workingDir,
      Map<String, String> env,
      Path pluginDir,
      List<Path> extraClasspath)
      throws IOException {
    List<String> local = new ArrayList<>();
    local.add("local");
    local.add("--plugin-dir=" + pluginDir);
    local.addAll(args);
    return start(name, logs, local, workingDir, env, extraClasspath);
  }

  /** Starts {@code skippr <args>}, any command, its output in {@code logs/<name>.out|err}. */
  static CliProcess start(
      String name, Path logs, List<String> args, Path workingDir, Map<String, String> env)
      throws IOException {
    return start(name, logs, args, workingDir, env, List.of());
  }

  /**
   * As {@link #start(String, Path, List, Path, Map)}, with {@code extraClasspath} after the CLI's
   * own jars (the Iceberg archive's, a JDBC driver), as {@code SKIPPR_CLASSPATH} adds them.
   */
  static CliProcess start(
      String name,
      Path logs,
      List<String> args,
      Path workingDir,
      Map<String, String> env,
      List<Path> extraClasspath)
      throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    Path cliJar;
    try (var jars = Files.list(root.resolve("cli/target"))) {
      cliJar =
          jars.filter(p -> p.getFileName().toString().matches("skippr-cli-.*\\.jar"))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("cli jar not built"));
    }
    Files.createDirectories(logs);
    Path out = logs.resolve(name + ".out");
    Path err = logs.resolve(name + ".err");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.add("-cp");
    StringBuilder classpath =
        new StringBuilder(cliJar + ":" + root.resolve("cli/target/lib") + "/*");
    extraClasspath.forEach(jar -> classpath.append(':').append(jar));
    command.add(classpath.toString());
    command.add("io.skippr.connect.cli.SkipprCommand");
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workingDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().putAll(env);
    Process process = builder.start();
    return new CliProcess(name, process, out, err);
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  void awaitReady(Duration timeout) {
    Await.until(
        timeout,
        () -> name + " ready line; output so far:\n" + output(),
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError(
                name + " exited with " + process.exitValue() + ":\n" + output());
          }
          return read(stdout).contains("skippr local: ready:");
        });
  }

  /** SIGKILL: no shutdown hook, no flush, no close. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError(name + " survived SIGKILL for 30 s");
    }
  }

  /** Sends a signal by PID, e.g. {@code STOP} or {@code CONT}. */
  void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid())).start();
    if (kill.waitFor() != 0) {
      throw new AssertionError("kill -" + signal + " " + pid() + " failed");
    }
  }

  /** SIGTERM, then SIGKILL if it has not stopped within 30 s. */
  void stop() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
  }

  /** SIGTERM and an orderly exit: fails when it does not exit 0 within {@code timeout}. */
  void terminate(Duration timeout) throws InterruptedException {
    process.destroy();
    int code = awaitExit(timeout);
    if (code != 0) {
      throw new AssertionError(name + " exited with " + code + " after SIGTERM:\n" + output());
    }
  }

  /**
   * Stops processes in the reverse order of their start, the first started (the broker the others
   * need for an orderly stop) last: SIGTERM to the others at once, then each is given up to 30 s.
   */
  static void stopAll(List<CliProcess> processes) throws InterruptedException {
    long start = System.nanoTime();
    List<CliProcess> reversed = new ArrayList<>(processes);
    Collections.reverse(reversed);
    for (CliProcess process : reversed.subList(0, Math.max(0, reversed.size() - 1))) {
      process.process.destroy();
    }
    for (CliProcess process : reversed) {
      process.stop();
    }
    System.out.printf(
        "stopped %d processes in %.1f s%n", processes.size(), (System.nanoTime() - start) / 1e9);
  }

  int exitCode() {
    return process.exitValue();
  }

  /** Waits for the process to exit on its own; fails (after SIGKILL) when it is still running. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      kill();
      throw new AssertionError(name + " still running after " + timeout + ":\n" + output());
    }
    return process.exitValue();
  }

  /** What it wrote to stdout so far. */
  String stdout() {
    return read(stdout);
  }

  /** The non-blank lines it wrote to stderr. */
  List<String> errorLines() {
    return read(stderr).lines().filter(line -> !line.isBlank()).toList();
  }

  String output() {
    return read(stdout) + "\n--- stderr ---\n" + read(stderr);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
